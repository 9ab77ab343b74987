import { z } from 'zod';
import { extractSpecFields, refineExtractSchema } from '../../scrape/extract-spec-fields';
import { clientTags, scrapeOptionsSchema } from '../../scrape/scrape-options';
import type { ApiDeps } from '../api-deps';
import { extractStatus, startExtract } from '../extract-job';
import type { RouteTable } from '../route';

export const MAX_EXTRACT_URLS = 10;

/** Fields of an extract request (v1; /v2/extract swaps in v2 scrape options). */
export const extractRequestShape = {
  urls: z
    .array(z.string().min(1).max(8192))
    .max(MAX_EXTRACT_URLS)
    .optional()
    .describe(`Pages to read (at most ${MAX_EXTRACT_URLS}). \`https://host/path/*\` wildcards arrive with map discovery.`),
  ...extractSpecFields,
  allowExternalLinks: z.boolean().default(false).describe('Wildcard expansion may leave the host.'),
  includeSubdomains: z.boolean().default(true).describe('Wildcard expansion may include subdomains.'),
  ignoreSitemap: z.boolean().default(false).describe('Wildcard expansion ignores sitemap.xml.'),
  showSources: z.boolean().default(false).describe('Add `sources`: the URLs the data was read from.'),
  ignoreInvalidURLs: z.boolean().default(false).describe('Skip URLs that cannot be read (listed in `invalidURLs`) instead of refusing the request.'),
  enableWebSearch: z.boolean().default(false).describe('Not available: extract reads the pages it is given.'),
  scrapeOptions: scrapeOptionsSchema.optional().describe('How each page is scraped; formats are ignored (the engines read the stored page).'),
  ...clientTags,
};

/** Rules between an extract request's fields. */
export function refineExtractRequest(
  o: Pick<z.infer<z.ZodObject<typeof extractRequestShape>>, 'urls' | 'schema' | 'prompt' | 'enableWebSearch'>,
  ctx: z.RefinementCtx,
): void {
  if (!o.urls || o.urls.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['urls'], message: 'give the pages to read; finding pages from a prompt alone needs web search, which extract does not do' });
  }
  if (!o.schema && !o.prompt) ctx.addIssue({ code: 'custom', path: ['schema'], message: 'give a schema, a prompt, or both' });
  if (o.enableWebSearch) ctx.addIssue({ code: 'custom', path: ['enableWebSearch'], message: 'web search is not available for extract' });
  refineExtractSchema(o.schema, ctx, ['schema']);
}

export const extractRequestSchema = z.strictObject(extractRequestShape).superRefine(refineExtractRequest);

const noteSchema = z
  .object({
    path: z.string().describe("The field: `price`, `offers.price`, `items[2].name`; '' for the whole object."),
    confidence: z.number().min(0).max(1),
    source: z.string().describe('json-ld, microdata, rdfa, opengraph, twitter, meta, table, definition-list, selector, llm, llm+<source> (both engines agree), schema, none'),
    evidence: z.string().nullable().describe('The snippet of the page the value came from.'),
    url: z.string().optional().describe('The page it came from.'),
    message: z.string().optional(),
    schema: z.record(z.string(), z.unknown()).optional().describe('On a prompt-only job: the inferred schema.'),
  })
  .meta({ id: 'ConfidenceNote' });

export const extractStatusSchema = z.object({
  success: z.literal(true),
  status: z.enum(['processing', 'completed', 'failed', 'cancelled']),
  data: z.record(z.string(), z.unknown()).nullable().describe('The merged result, once completed.'),
  notes: z.array(noteSchema).describe('Confidence notes, one per field, plus merge and schema notes.'),
  sources: z.array(z.string()).optional().describe('With showSources: the URLs the data was read from.'),
  error: z.string().optional(),
  creditsUsed: z.number().int(),
  tokensUsed: z.number().int().describe('LLM tokens used.'),
  expiresAt: z.string(),
});

export function registerExtractRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v1/extract',
    tag: 'Extraction',
    summary: 'Extract schema-shaped JSON from pages',
    description:
      'Starts `extract-<id>`: each page is scraped, read by the structured-data engine (JSON-LD, microdata, RDFa, meta tags, tables) and, when an LLM is configured, by the model too; results merge into one object. Poll GET /v1/extract/{id}.',
    auth: true,
    body: extractRequestSchema,
    responses: {
      200: {
        description: 'The job started',
        schema: z.object({ success: z.literal(true), id: z.string(), invalidURLs: z.array(z.string()).optional() }),
      },
      400: { description: 'Invalid request (BAD_REQUEST)' },
      402: { description: 'Not enough credits (INSUFFICIENT_CREDITS)' },
      403: { description: 'Not a public http(s) URL (URL_BLOCKED)' },
      422: { description: 'A prompt without a schema, and no LLM configured (LLM_NOT_CONFIGURED)' },
    },
    handler: async (ctx, { body }) => {
      const { origin: _o, integration: _i, ...request } = body;
      ctx.body = { success: true, ...(await startExtract(deps, ctx.state.team, request, body.scrapeOptions ?? scrapeOptionsSchema.parse({}), request)) };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/extract/:id',
    tag: 'Extraction',
    summary: 'Status and result of an extract job',
    auth: true,
    responses: {
      200: { description: 'The job, with data and notes once completed', schema: extractStatusSchema },
      404: { description: 'Unknown or expired job, or another team’s (NOT_FOUND)' },
    },
    handler: async (ctx) => {
      ctx.body = await extractStatus(deps, ctx.state.team.teamId, String(ctx.params.id));
    },
  });
}
