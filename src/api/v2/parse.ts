import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { PRICES } from '../../credits/pricing';
import { AppError } from '../../errors';
import { createJob } from '../../jobs/job-store';
import { storeScrapedPage } from '../../jobs/page-store';
import { docxToHtml } from '../../parse/docx-to-html';
import { readUpload } from '../../parse/read-upload';
import { DOCX_TYPE, uploadType } from '../../parse/upload-type';
import { ProcessingPool } from '../../scrape/process/processing-pool';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';
import { requireCredits } from '../preflight';
import { validate } from '../validation';
import { v2DocumentSchema } from '../../firecrawl/v2/document';
import { renderV2Document } from '../../firecrawl/v2/render-document';
import { formatName, jobOptionsWithV2, planV2Scrape, v2FormatSchema, v2ScrapeOptionsSchema, v2ScrapeOptionsShape } from '../../firecrawl/v2/scrape-options';

/** Formats a file has: no render (screenshot), no LLM step here (json, summary), no history (changeTracking). */
const PARSE_FORMATS = new Set(['markdown', 'html', 'rawHtml', 'links', 'images', 'attributes', 'text', 'question', 'highlights', 'query', 'product', 'menu']);

/** The `options` field of POST /v2/parse (the SDK's ParseOptions, as far as a file has them). */
export const v2ParseOptionsSchema = z
  .strictObject({
    formats: z.array(v2FormatSchema).min(1).max(20).default(['markdown']),
    onlyMainContent: v2ScrapeOptionsShape.onlyMainContent,
    includeTags: v2ScrapeOptionsShape.includeTags,
    excludeTags: v2ScrapeOptionsShape.excludeTags,
    timeout: v2ScrapeOptionsShape.timeout.describe('Milliseconds the parse may take.'),
    removeBase64Images: v2ScrapeOptionsShape.removeBase64Images,
    parsers: v2ScrapeOptionsShape.parsers,
    origin: v2ScrapeOptionsShape.origin,
    integration: v2ScrapeOptionsShape.integration,
  })
  .superRefine((o, ctx) => {
    o.formats.forEach((f, i) => {
      if (!PARSE_FORMATS.has(formatName(f))) ctx.addIssue({ code: 'custom', path: ['formats', i], message: `the ${formatName(f)} format is not available for uploaded files` });
    });
  });

/** Processing threads for uploads, started with the first one: parsing stays off the API's event loop, bounded by `timeout`. */
let uploadProcessing: ProcessingPool | undefined;

/**
 * POST /v2/parse: an uploaded file becomes a document. It is processed like a fetched page
 * (DOCX by way of HTML), stored as the page of a one-page job with its charge in one
 * transaction, and kept out of the search index and the `maxAge` cache (it has no public URL).
 */
export function registerV2ParseRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v2/parse',
    tag: 'Firecrawl v2',
    summary: 'Turn an uploaded PDF, HTML or DOCX file into a document (v2)',
    description: `multipart/form-data with a \`file\` part (PDF, HTML, DOCX, text, markdown, JSON or XML; at most PARSE_MAX_BYTES) and an optional \`options\` part: JSON with formats (${[...PARSE_FORMATS].join(', ')}), onlyMainContent, includeTags, excludeTags, timeout, removeBase64Images, parsers. ${PRICES.page} credit.`,
    auth: true,
    responses: {
      200: { description: 'The document', schema: z.object({ success: z.literal(true), data: v2DocumentSchema }) },
      400: { description: 'Not multipart, no file, an unsupported file type, or invalid options (BAD_REQUEST)' },
      402: { description: 'Not enough credits (INSUFFICIENT_CREDITS)' },
      408: { description: 'Processing did not finish within timeout (SCRAPE_TIMEOUT)' },
      413: { description: 'The upload is larger than PARSE_MAX_BYTES (PAYLOAD_TOO_LARGE)' },
    },
    handler: async (ctx) => {
      const { team } = ctx.state;
      if (!ctx.is('multipart/form-data')) throw new AppError('BAD_REQUEST', 'Send the file as multipart/form-data, with a `file` part and an optional `options` JSON part');
      const upload = await readUpload(ctx.req, ctx.get('content-type'), deps.config.PARSE_MAX_BYTES);
      const { origin: _o, integration: _i, ...options } = validate(v2ParseOptionsSchema, upload.options, 'options');
      const plan = planV2Scrape(v2ScrapeOptionsSchema.parse({ ...options, maxAge: 0, storeInCache: false }));
      const type = uploadType(upload.filename, upload.type);
      await requireCredits(deps.db, team.teamId, PRICES.page, 'This parse');

      const deadline = Date.now() + plan.options.timeout;
      const docx = type === DOCX_TYPE ? await docxToHtml(upload.bytes, upload.filename) : undefined;
      const body = docx ? new TextEncoder().encode(docx.html) : upload.bytes;
      const contentType = docx ? 'text/html; charset=utf-8' : type;
      // Relative links in the file resolve against a file: URL, which no link list keeps.
      const sourceUrl = `file:///uploads/${encodeURIComponent(upload.filename)}`;
      uploadProcessing ??= new ProcessingPool({
        threads: 1,
        budgetMs: deps.config.PROCESSING_TIMEOUT_MS,
        maxLinks: deps.config.MAX_LINKS_PER_PAGE,
        onThreadError: (err) => deps.logger.warn({ err }, 'an upload processing thread failed outside a file and was replaced'),
      });
      const started = performance.now();
      const content = await uploadProcessing.process(body, contentType, sourceUrl, plan.options, { deadline, fetchMs: 0 });
      const warning = [content.warning, ...(docx?.warnings.map((w) => `DOCX: ${w}`) ?? [])].filter(Boolean).join(' ');

      const jobId = randomUUID();
      await createJob(deps.db, { id: jobId, teamId: team.teamId, kind: 'scrape', url: sourceUrl, options: jobOptionsWithV2(plan), ttlHours: deps.config.JOB_TTL_HOURS });
      const stored = await storeScrapedPage(
        deps.db,
        { jobId, teamId: team.teamId, url: sourceUrl, urlKey: `parse:${jobId}`, depth: 0, pageId: jobId },
        {
          finalUrl: sourceUrl,
          statusCode: 200,
          contentType,
          renderer: 'http',
          content: { ...content, ...(warning && { warning }) },
          timing: { processMs: Math.round(performance.now() - started) },
        },
        { amount: PRICES.page, operation: 'parse', idempotencyKey: `parse:${jobId}` },
        { keepRawHtml: plan.options.formats.includes('rawHtml'), finishJob: true, variant: `parse:${jobId}`, searchable: false, returnRow: true },
      );
      // A new job's page: this call stored it, and has its row.
      ctx.body = { success: true, data: await renderV2Document(deps.db, stored.row!, plan.output, {}, deps.config.llm && { config: deps.config.llm, teamId: team.teamId }) };
    },
  });
}
