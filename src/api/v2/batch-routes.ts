import { z } from 'zod';
import { batchOptionsOf, webhookSchema } from '../../crawl/crawl-options';
import { submitCrawl } from '../../crawl/submit-crawl';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';
import { partitionBatchUrls } from '../routes/batch';
import { registerJobStatusRoutes } from '../routes/crawl';
import { v2DocumentView } from './crawl-document-view';
import { refineJobFormats, zeroDataRetentionField } from './crawl-request';
import { planV2Scrape, refineV2ScrapeOptions, v2ScrapeOptionsShape } from '../../firecrawl/v2/scrape-options';
import { WATCH_NOTE } from './watch-crawl';

/** Body of POST /v2/batch/scrape: the URLs and v2 scrape options side by side, as the SDK sends them. */
export const v2BatchScrapeRequestSchema = z
  .strictObject({
    urls: z.array(z.string().min(1).max(8192)).min(1).max(1_000).describe('Pages to scrape.'),
    ...v2ScrapeOptionsShape,
    webhook: webhookSchema.optional(),
    ignoreInvalidURLs: z.boolean().default(true).describe('Skip invalid or blocked URLs (listed in invalidURLs) instead of refusing the batch; v2 defaults to true.'),
    maxConcurrency: z.number().int().min(1).max(100).optional().describe('Pages fetched at once (default 10).'),
    zeroDataRetention: zeroDataRetentionField,
  })
  .superRefine((o, ctx) => {
    refineV2ScrapeOptions(o, ctx);
    refineJobFormats(o, ctx, ['formats']);
  });

/** POST /v2/batch/scrape and its status (with `next`), errors and cancel. */
export function registerV2BatchRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v2/batch/scrape',
    tag: 'Firecrawl v2',
    summary: 'Scrape many URLs as one job (v2)',
    description:
      'The v1 batch with v2 scrape options; `ignoreInvalidURLs` defaults to true. Runs as a crawl of the given URLs that follows no links; its id also resolves at /v2/crawl/{id}.',
    auth: true,
    body: v2BatchScrapeRequestSchema,
    responses: {
      200: {
        description: 'The batch started',
        schema: z.object({ success: z.literal(true), id: z.string(), url: z.string(), invalidURLs: z.array(z.string()).optional() }),
      },
      402: { description: 'The credits do not cover every URL (INSUFFICIENT_CREDITS)' },
      403: { description: 'A URL is not public and ignoreInvalidURLs is false (URL_BLOCKED)' },
    },
    handler: async (ctx, { body }) => {
      const { valid, invalid } = partitionBatchUrls(deps.gate, body.urls, body.ignoreInvalidURLs);
      const { origin: _o, integration: _i, ...request } = body;
      const { urls: _u, webhook, ignoreInvalidURLs, maxConcurrency, zeroDataRetention: _z, ...scrapeOptions } = request;
      const plan = planV2Scrape(scrapeOptions);
      const batch = batchOptionsOf({ urls: valid, ...plan.options, ignoreInvalidURLs, ...(webhook && { webhook }) }, valid);
      const idempotencyKey = ctx.get('x-idempotency-key') || undefined;
      const id = await submitCrawl(deps, {
        teamId: ctx.state.team.teamId,
        options: { ...batch, ...(maxConcurrency !== undefined && { maxConcurrency }), v2Output: plan.output },
        body: request,
        ...(idempotencyKey && { idempotencyKey }),
      });
      ctx.body = { success: true, id, url: `${deps.config.PUBLIC_URL}/v2/batch/scrape/${id}`, ...(ignoreInvalidURLs && { invalidURLs: invalid }) };
    },
  });

  registerJobStatusRoutes(routes, deps, { base: '/v2/batch/scrape', label: 'batch scrape', tag: 'Firecrawl v2', view: v2DocumentView, statusNote: WATCH_NOTE });
}
