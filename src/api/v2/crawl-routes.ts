import { z } from 'zod';
import { submitCrawl } from '../../crawl/submit-crawl';
import { clientTags } from '../../scrape/scrape-options';
import type { ApiDeps } from '../api-deps';
import { checkTarget } from '../preflight';
import type { RouteTable } from '../route';
import { activeCrawls, activeCrawlsSchema, registerJobStatusRoutes } from '../routes/crawl';
import { v2DocumentView } from './crawl-document-view';
import { CrawlParamsFromPrompt } from './crawl-params-preview';
import { v2CrawlOptionsOf, v2CrawlParamsShape, v2CrawlRequestSchema } from './crawl-request';
import { WATCH_NOTE } from './watch-crawl';

/** POST /v2/crawl, its status (with `next`), cancel, errors, the active list and params-preview. */
export function registerV2CrawlRoutes(routes: RouteTable, deps: ApiDeps): void {
  const fromPrompt = new CrawlParamsFromPrompt(deps.config.llm);

  routes.add({
    method: 'post',
    path: '/v2/crawl',
    tag: 'Firecrawl v2',
    summary: 'Start a crawl (v2)',
    description:
      'The v1 crawl with v2 options: `sitemap` skip/include/only, `maxDiscoveryDepth`, v2 `scrapeOptions`, and a `prompt` an LLM turns into the options the body leaves out. Watch it by polling GET /v2/crawl/{id} or over a WebSocket at the same path.',
    auth: true,
    body: v2CrawlRequestSchema,
    responses: {
      200: { description: 'The crawl started', schema: z.object({ success: z.literal(true), id: z.string(), url: z.string() }) },
      402: { description: 'No credits at all (INSUFFICIENT_CREDITS)' },
      403: { description: 'The start URL is not public (URL_BLOCKED)' },
      422: { description: 'A prompt and no LLM configured (LLM_NOT_CONFIGURED)' },
    },
    handler: async (ctx, { body }) => {
      await checkTarget(deps.gate, body.url);
      const derived = body.prompt ? await fromPrompt.derive(body.url, body.prompt) : {};
      const idempotencyKey = ctx.get('x-idempotency-key') || undefined;
      const { origin: _o, integration: _i, ...request } = body;
      const id = await submitCrawl(deps, { teamId: ctx.state.team.teamId, options: v2CrawlOptionsOf(body, derived), body: request, ...(idempotencyKey && { idempotencyKey }) });
      ctx.body = { success: true, id, url: `${deps.config.PUBLIC_URL}/v2/crawl/${id}` };
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/crawl/active',
    tag: 'Firecrawl v2',
    summary: "The team's running crawls and batches (v2)",
    auth: true,
    responses: { 200: { description: 'Running crawls and batches', schema: activeCrawlsSchema } },
    handler: async (ctx) => {
      ctx.body = { success: true, crawls: await activeCrawls(deps, ctx.state.team.teamId) };
    },
  });

  routes.add({
    method: 'post',
    path: '/v2/crawl/params-preview',
    tag: 'Firecrawl v2',
    summary: 'The crawl options a prompt comes to',
    description: 'Asks the configured LLM, as POST /v2/crawl with a `prompt` does, and answers the options without starting a crawl. Not charged.',
    auth: true,
    body: z.strictObject({
      url: z.string().min(1).max(8192).describe('Where the crawl would start.'),
      prompt: z.string().min(1).max(2_000).describe('What to crawl, in words.'),
      ...clientTags,
    }),
    responses: {
      200: { description: 'The options', schema: z.object({ success: z.literal(true), data: z.object({ url: z.string(), ...v2CrawlParamsShape }) }) },
      422: { description: 'No LLM configured (LLM_NOT_CONFIGURED)' },
      502: { description: 'The LLM failed or answered unusable options (LLM_ERROR)' },
    },
    handler: async (ctx, { body }) => {
      const url = deps.gate.parse(body.url).href;
      ctx.body = { success: true, data: { url, ...(await fromPrompt.derive(url, body.prompt)) } };
    },
  });

  registerJobStatusRoutes(routes, deps, { base: '/v2/crawl', label: 'crawl', tag: 'Firecrawl v2', view: v2DocumentView, statusNote: WATCH_NOTE });
}
