import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import type { AuthenticatedTeam } from '../accounts/api-keys';
import { AppError } from '../errors';
import type { AdmissionTicket, ScrapeAdmission } from '../limits/scrape-admission';
import { validate } from './validation';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
}

/**
 * One endpoint: its handler and its documentation from the same schemas, so the OpenAPI
 * document cannot drift from what the code accepts.
 */
export interface RouteSpec<B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType> {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Koa path syntax (`/v1/crawl/:id`). */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** Needs a bearer key (every /v1 route but image URLs). */
  auth: boolean;
  /**
   * Work a client waits on (scrapes, screenshots): the request takes its place here before it is
   * authenticated, so that under overload it is refused without a database query, and holds it
   * until it ends. The handler admits it as its team's (`admissionTicket`).
   */
  admission?: ScrapeAdmission;
  body?: B;
  query?: Q;
  responses: Record<number, ResponseSpec>;
  handler: (ctx: RouteContext, input: { body: z.infer<B>; query: z.infer<Q> }) => Promise<void>;
}

export type RouteContext = Context & { state: { team: AuthenticatedTeam; admission?: AdmissionTicket } };

/** The place the request holds on a route declared with `admission`. */
export function admissionTicket(ctx: RouteContext): AdmissionTicket {
  const { admission } = ctx.state;
  if (!admission) throw new AppError('INTERNAL_ERROR', `${ctx.method} ${ctx.path} runs work a client waits on, but its route takes no admission`);
  return admission;
}

/** Collects routes onto a router and keeps their specs for /openapi.json. */
export class RouteTable {
  readonly specs: RouteSpec[] = [];

  constructor(
    private readonly router: Router,
    private readonly authMiddleware: Middleware[],
  ) {}

  add<B extends z.ZodType, Q extends z.ZodType>(spec: RouteSpec<B, Q>): void {
    this.specs.push(spec as unknown as RouteSpec);
    const handle: Middleware = async (ctx) => {
      const body = spec.body ? validate(spec.body, (ctx.request as { body?: unknown }).body, 'request body') : undefined;
      const query = spec.query ? validate(spec.query, ctx.query, 'query') : undefined;
      await spec.handler(ctx as RouteContext, { body, query } as { body: z.infer<B>; query: z.infer<Q> });
    };
    const { admission } = spec;
    const enter: Middleware[] = admission
      ? [
          async (ctx, next) => {
            const ticket = admission.enter();
            ctx.state.admission = ticket;
            try {
              await next();
            } finally {
              ticket.leave();
            }
          },
        ]
      : [];
    this.router[spec.method](spec.path, ...enter, ...(spec.auth ? this.authMiddleware : []), handle);
  }
}
