import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { extractWorkflow } from '../../../workflows';
import { PRICES } from '../../credits/pricing';
import { AppError } from '../../errors';
import { extractSpecFields, refineExtractSchema, requireLlmForPromptOnly } from '../../extract/spec-fields';
import { isUrlPattern, patternBase, type PatternPage } from '../../extract/url-pattern';
import { findExtraction } from '../../jobs/extraction-store';
import { createJob, findJob } from '../../jobs/job-store';
import { clientTags, scrapeOptionsSchema, type ScrapeOptions } from '../../scrape/scrape-options';
import { urlKey } from '../../url/normalize-url';
import type { ApiDeps } from '../api-deps';
import { checkTarget, requireCredits } from '../preflight';
import type { RouteTable } from '../route';

export const MAX_EXTRACT_URLS = 10;

export const extractRequestSchema = z
  .strictObject({
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
  })
  .superRefine((o, ctx) => {
    if (!o.urls || o.urls.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['urls'], message: 'give the pages to read; finding pages from a prompt alone needs web search, which extract does not do' });
    }
    if (!o.schema && !o.prompt) ctx.addIssue({ code: 'custom', path: ['schema'], message: 'give a schema, a prompt, or both' });
    if (o.enableWebSearch) ctx.addIssue({ code: 'custom', path: ['enableWebSearch'], message: 'web search is not available for extract' });
    refineExtractSchema(o.schema, ctx, ['schema']);
  });

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

const statusSchema = z.object({
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

/** Time an extract job may run: its pages, then the engines (an LLM may take minutes per page). */
const EXTRACT_RUN_TIMEOUT = '2 hours';

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
      const { team } = ctx.state;
      requireLlmForPromptOnly(body, deps.config.llm);
      const urls = body.urls ?? [];
      const pages: PatternPage[] = [];
      const patterns: string[] = [];
      const invalidURLs: string[] = [];
      for (const [i, url] of urls.entries()) {
        if (isUrlPattern(url)) {
          const parsed = patternBase(url);
          if (!parsed) throw new AppError('BAD_REQUEST', `${url}: only a trailing /* is a wildcard (https://host/path/*)`, [{ path: `urls.${i}`, message: 'not a https://host/path/* wildcard' }]);
          await checkTarget(deps.gate, parsed.base);
          patterns.push(url);
          continue;
        }
        try {
          const target = await checkTarget(deps.gate, url);
          const key = urlKey(target.href);
          if (!pages.some((p) => p.urlKey === key)) pages.push({ url, urlKey: key });
        } catch (err) {
          if (!(body.ignoreInvalidURLs && err instanceof AppError)) throw err;
          invalidURLs.push(url);
        }
      }
      if (pages.length === 0 && patterns.length === 0) {
        throw new AppError('BAD_REQUEST', 'None of the URLs can be read', invalidURLs.map((url) => ({ path: 'urls', message: `cannot read ${url}` })));
      }

      // A wildcard reads at least one page.
      const needed = PRICES.extractPage * (pages.length + patterns.length);
      await requireCredits(deps.db, team.teamId, needed, 'This extract');

      const { origin: _o, integration: _i, ...request } = body;
      const scrapeOptions: ScrapeOptions = { ...(body.scrapeOptions ?? scrapeOptionsSchema.parse({})), formats: ['markdown'] };
      delete scrapeOptions.jsonOptions;
      const jobId = randomUUID();
      await createJob(deps.db, { id: jobId, teamId: team.teamId, kind: 'extract', url: pages[0]?.url ?? patterns[0]!, options: request, ttlHours: deps.config.JOB_TTL_HOURS });
      await deps.temporal.workflow.start(extractWorkflow, {
        taskQueue: deps.config.taskQueues.http,
        workflowId: `extract-${jobId}`,
        workflowExecutionTimeout: EXTRACT_RUN_TIMEOUT,
        args: [
          {
            jobId,
            teamId: team.teamId,
            pages,
            patterns,
            discovery: { includeSubdomains: body.includeSubdomains, allowExternalLinks: body.allowExternalLinks, ignoreSitemap: body.ignoreSitemap },
            spec: { ...(body.schema && { schema: body.schema }), ...(body.prompt && { prompt: body.prompt }), ...(body.systemPrompt && { systemPrompt: body.systemPrompt }) },
            scrapeOptions,
            browserQueue: deps.config.taskQueues.browser,
          },
        ],
      });
      ctx.body = { success: true, id: jobId, ...(body.ignoreInvalidURLs && { invalidURLs }) };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/extract/:id',
    tag: 'Extraction',
    summary: 'Status and result of an extract job',
    auth: true,
    responses: {
      200: { description: 'The job, with data and notes once completed', schema: statusSchema },
      404: { description: 'Unknown or expired job, or another team’s (NOT_FOUND)' },
    },
    handler: async (ctx) => {
      const job = await findJob(deps.db, ctx.state.team.teamId, String(ctx.params.id));
      if (!job || job.kind !== 'extract') throw new AppError('NOT_FOUND', 'No extract job with this id');
      if (job.expiresAt.getTime() < Date.now()) throw new AppError('NOT_FOUND', `This extract job expired at ${job.expiresAt.toISOString()}`);
      const result = await findExtraction(deps.db, job.id);
      const done = job.status === 'completed' && result?.completedAt ? result : undefined;
      const options = job.options as { showSources?: boolean };
      ctx.body = {
        success: true,
        status: job.status === 'scraping' ? 'processing' : job.status,
        data: done?.data ?? null,
        notes: done?.notes ?? [],
        ...(options.showSources && done && { sources: done.sources ?? [] }),
        ...(job.error && { error: job.error }),
        creditsUsed: done?.credits ?? 0,
        tokensUsed: done?.llmTokens ?? 0,
        expiresAt: job.expiresAt.toISOString(),
      };
    },
  });
}
