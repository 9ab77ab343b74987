import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import type { AuthenticatedTeam } from '../accounts/api-keys';
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
   * Runs before authentication, to refuse work under overload without a database query
   * (scrapes and screenshots: ScrapeAdmission.refuseIfSaturated).
   */
  shedLoad?: () => void;
  body?: B;
  query?: Q;
  responses: Record<number, ResponseSpec>;
  handler: (ctx: RouteContext, input: { body: z.infer<B>; query: z.infer<Q> }) => Promise<void>;
}

export type RouteContext = Context & { state: { team: AuthenticatedTeam } };

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
    const { shedLoad } = spec;
    const shed: Middleware[] = shedLoad
      ? [
          (_ctx, next) => {
            shedLoad();
            return next();
          },
        ]
      : [];
    this.router[spec.method](spec.path, ...shed, ...(spec.auth ? this.authMiddleware : []), handle);
  }
}
