import { z } from 'zod';
import { batchOptionsOf, batchScrapeRequestSchema } from '../../crawl/crawl-options';
import { submitCrawl } from '../../crawl/submit-crawl';
import { AppError } from '../../errors';
import type { PublicUrlGate } from '../../net/public-url-gate';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';
import { registerJobStatusRoutes, v1DocumentView } from './crawl';

/**
 * A batch's URLs the gate lets through, normalised, and the others. An invalid or blocked URL
 * refuses the batch unless `ignoreInvalid`; a batch with no valid URL is refused either way.
 */
export function partitionBatchUrls(gate: PublicUrlGate, urls: readonly string[], ignoreInvalid: boolean): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const url of urls) {
    try {
      valid.push(gate.parse(url).href);
    } catch (err) {
      if (!ignoreInvalid) throw err;
      invalid.push(url);
    }
  }
  if (valid.length === 0) throw new AppError('BAD_REQUEST', 'None of the URLs can be scraped', invalid.map((u) => ({ path: 'urls', message: `${u} is not a public http(s) URL` })));
  return { valid, invalid };
}

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
      const { valid, invalid } = partitionBatchUrls(deps.gate, body.urls, body.ignoreInvalidURLs);
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

  registerJobStatusRoutes(routes, deps, { base: '/v1/batch/scrape', label: 'batch scrape', tag: 'Crawling', view: v1DocumentView });
}
