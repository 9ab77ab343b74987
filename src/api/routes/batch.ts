import { z } from 'zod';
import { batchOptionsOf, batchScrapeRequestSchema } from '../../crawl/crawl-options';
import { submitCrawl } from '../../crawl/submit-crawl';
import { AppError } from '../../errors';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';
import { registerJobStatusRoutes } from './crawl';

export function registerBatchRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v1/batch/scrape',
    tag: 'Crawling',
    summary: 'Scrape many URLs as one job',
    description:
      'Runs as a crawl of the given URLs that follows no links; its id also resolves at /v1/crawl/:id. Invalid or blocked URLs refuse the batch unless `ignoreInvalidURLs`, which lists them in `invalidURLs` instead.',
    auth: true,
    body: batchScrapeRequestSchema,
    responses: {
      200: {
        description: 'The batch started',
        schema: z.object({ success: z.literal(true), id: z.string(), url: z.string(), invalidURLs: z.array(z.string()).optional() }),
      },
      402: { description: 'The credits do not cover every URL (INSUFFICIENT_CREDITS)' },
      403: { description: 'A URL is not public and ignoreInvalidURLs is off (URL_BLOCKED)' },
    },
    handler: async (ctx, { body }) => {
      const valid: string[] = [];
      const invalid: string[] = [];
      for (const url of body.urls) {
        try {
          valid.push(deps.gate.parse(url).href);
        } catch (err) {
          if (!body.ignoreInvalidURLs) throw err;
          invalid.push(url);
        }
      }
      if (valid.length === 0) throw new AppError('BAD_REQUEST', 'None of the URLs can be scraped', invalid.map((u) => ({ path: 'urls', message: `${u} is not a public http(s) URL` })));
      const idempotencyKey = ctx.get('x-idempotency-key') || undefined;
      const { origin: _o, integration: _i, ...request } = body;
      const id = await submitCrawl(deps, {
        teamId: ctx.state.team.teamId,
        options: batchOptionsOf(body, valid),
        body: request,
        ...(idempotencyKey && { idempotencyKey }),
      });
      ctx.body = { success: true, id, url: `${deps.config.PUBLIC_URL}/v1/batch/scrape/${id}`, ...(body.ignoreInvalidURLs && { invalidURLs: invalid }) };
    },
  });

  registerJobStatusRoutes(routes, deps, '/v1/batch/scrape', 'batch scrape');
}
