import { z } from 'zod';
import { extractStatus, startExtract } from '../extract-job';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';
import { extractRequestShape, extractStatusSchema, refineExtractRequest } from '../routes/extract';
import { planV2Scrape, v2ScrapeOptionsSchema } from '../../firecrawl/v2/scrape-options';
import { sourcesByField } from '../../extract/sources-by-field';

/** Body of POST /v2/extract: /v1/extract's, with v2 scrape options. */
export const v2ExtractRequestSchema = z
  .strictObject({
    ...extractRequestShape,
    scrapeOptions: v2ScrapeOptionsSchema.optional().describe('How each page is scraped (v2 scrape options); formats are ignored (the engines read the stored page).'),
  })
  .superRefine(refineExtractRequest);

export function registerV2ExtractRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v2/extract',
    tag: 'Firecrawl v2',
    summary: 'Extract schema-shaped JSON from pages (v2)',
    description: 'The /v1/extract job with v2 scrape options. Poll GET /v2/extract/{id}.',
    auth: true,
    body: v2ExtractRequestSchema,
    responses: {
      200: { description: 'The job started', schema: z.object({ success: z.literal(true), id: z.string(), invalidURLs: z.array(z.string()).optional() }) },
      402: { description: 'Not enough credits (INSUFFICIENT_CREDITS)' },
      403: { description: 'Not a public http(s) URL (URL_BLOCKED)' },
      422: { description: 'A prompt without a schema, and no LLM configured (LLM_NOT_CONFIGURED)' },
    },
    handler: async (ctx, { body }) => {
      const { origin: _o, integration: _i, scrapeOptions, ...request } = body;
      const options = planV2Scrape(scrapeOptions ?? v2ScrapeOptionsSchema.parse({})).options;
      ctx.body = { success: true, ...(await startExtract(deps, ctx.state.team, request, options, { ...request, ...(scrapeOptions && { scrapeOptions }) })) };
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/extract/:id',
    tag: 'Firecrawl v2',
    summary: 'Status and result of an extract job (v2)',
    description: 'As GET /v1/extract/{id}, but `sources` (with showSources) maps each field to the pages its value came from.',
    auth: true,
    responses: {
      200: {
        description: 'The job, with data and notes once completed',
        schema: extractStatusSchema.extend({ sources: z.record(z.string(), z.array(z.string())).optional().describe('With showSources: per field, the pages its value came from.') }),
      },
      404: { description: 'Unknown or expired job, or another team’s (NOT_FOUND)' },
    },
    handler: async (ctx) => {
      const status = await extractStatus(deps, ctx.state.team.teamId, String(ctx.params.id));
      ctx.body = 'sources' in status ? { ...status, sources: sourcesByField(status.notes) } : status;
    },
  });
}
