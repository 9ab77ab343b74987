import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { PRICES } from '../../credits/pricing';
import { pageColumns, type PageRow } from '../../db/page-row';
import { jobs, pages } from '../../db/schema';
import { AppError, isErrorCode } from '../../errors';
import { createJob, failJob } from '../../jobs/job-store';
import { findResumable, markResumable, resumeKeyOf } from '../../jobs/resumable-scrapes';
import { singlePageBudgetMs } from '../../scrape/page-budget';
import { awaitWorkflowResult } from '../../temporal/await-result';
import { continuingError, isContinuing } from '../continuing';
import { storeScrapedPage } from '../../jobs/page-store';
import { docxToHtml } from '../../parse/docx-to-html';
import { readUpload, type Upload } from '../../parse/read-upload';
import { DOCX_TYPE, uploadType } from '../../parse/upload-type';
import { ProcessingPool } from '../../scrape/process/processing-pool';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';
import { requireCredits } from '../preflight';
import { validate } from '../validation';
import { v2DocumentSchema } from '../../firecrawl/v2/document';
import { renderV2Document } from '../../firecrawl/v2/render-document';
import { formatName, jobOptionsWithV2, planV2Scrape, type V2ScrapePlan, v2FormatSchema, v2ScrapeOptionsSchema, v2ScrapeOptionsShape } from '../../firecrawl/v2/scrape-options';

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

/** Processing threads for uploads, started with the first one: parsing stays off the API's event loop, bounded by its budget. */
let uploadProcessing: ProcessingPool | undefined;

/** One upload's parse. */
interface ParseJob {
  jobId: string;
  teamId: string;
  sourceUrl: string;
  type: string;
  upload: Upload;
  plan: V2ScrapePlan;
  /** When the work stops, whether or not its client still waits (singlePageBudgetMs). */
  deadline: number;
}

/**
 * Processes the file like a fetched page (DOCX by way of HTML), waiting its turn for the upload
 * thread among its team's and others' uploads, and stores it as the job's page with its charge.
 */
async function parseAndStore(deps: ApiDeps, p: ParseJob): Promise<PageRow> {
  const docx = p.type === DOCX_TYPE ? await docxToHtml(p.upload.bytes, p.upload.filename) : undefined;
  const body = docx ? new TextEncoder().encode(docx.html) : p.upload.bytes;
  const contentType = docx ? 'text/html; charset=utf-8' : p.type;
  uploadProcessing ??= new ProcessingPool({
    threads: 1,
    budgetMs: deps.config.PROCESSING_TIMEOUT_MS,
    heapMb: deps.config.PROCESSING_THREAD_HEAP_MB,
    maxLinks: deps.config.MAX_LINKS_PER_PAGE,
    onThreadError: (err) => deps.logger.warn({ err }, 'an upload processing thread failed outside a file and was replaced'),
  });
  const started = performance.now();
  const content = await uploadProcessing.process(body, contentType, p.sourceUrl, p.plan.options, { deadline: p.deadline, fetchMs: 0, turn: { fairnessKey: p.teamId } });
  const warning = [content.warning, ...(docx?.warnings.map((w) => `DOCX: ${w}`) ?? [])].filter(Boolean).join(' ');
  const stored = await storeScrapedPage(
    deps.db,
    { jobId: p.jobId, teamId: p.teamId, url: p.sourceUrl, urlKey: `parse:${p.jobId}`, depth: 0, pageId: p.jobId },
    {
      finalUrl: p.sourceUrl,
      statusCode: 200,
      contentType,
      renderer: 'http',
      content: { ...content, ...(warning && { warning }) },
      timing: { processMs: Math.round(performance.now() - started) },
    },
    { amount: PRICES.page, operation: 'parse', idempotencyKey: `parse:${p.jobId}` },
    { keepRawHtml: p.plan.options.formats.includes('rawHtml'), finishJob: true, variant: `parse:${p.jobId}`, searchable: false, returnRow: true },
  );
  // A new job's page: this call stored it, and has its row.
  return stored.row!;
}

/** How often a request resuming a parse looks at its job (the parse may run on another API replica). */
const RESUME_POLL_MS = 250;

/** The page of a parse an identical earlier request left running or finished, once it is stored; 408 again past `timeoutMs`. */
async function parsedPage(deps: ApiDeps, jobId: string, timeoutMs: number): Promise<PageRow> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [job] = await deps.db.select({ status: jobs.status, errorCode: jobs.errorCode, error: jobs.error }).from(jobs).where(eq(jobs.id, jobId));
    if (job?.status === 'completed') {
      const [row] = await deps.db.select(pageColumns).from(pages).where(eq(pages.id, jobId));
      return row!;
    }
    if (!job || job.status === 'failed') throw new AppError(isErrorCode(job?.errorCode) ? job.errorCode : 'INTERNAL_ERROR', job?.error ?? 'The parse is gone');
    if (Date.now() >= until) throw continuingError(deps, jobId, timeoutMs);
    await sleep(RESUME_POLL_MS);
  }
}

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
      408: { description: 'Processing did not finish within timeout and goes on (SCRAPE_TIMEOUT, details.state processing_continues, Retry-After): the same file and options sent again get the document' },
      413: { description: 'The upload is larger than PARSE_MAX_BYTES (PAYLOAD_TOO_LARGE)' },
    },
    handler: async (ctx) => {
      const { team } = ctx.state;
      if (!ctx.is('multipart/form-data')) throw new AppError('BAD_REQUEST', 'Send the file as multipart/form-data, with a `file` part and an optional `options` JSON part');
      const upload = await readUpload(ctx.req, ctx.get('content-type'), deps.config.PARSE_MAX_BYTES);
      const { origin: _o, integration: _i, ...options } = validate(v2ParseOptionsSchema, upload.options, 'options');
      const plan = planV2Scrape(v2ScrapeOptionsSchema.parse({ ...options, maxAge: 0, storeInCache: false }));
      const type = uploadType(upload.filename, upload.type);
      const timeoutMs = plan.options.timeout;
      // The same file with the same options, sent again after a 408, is the same parse.
      const resumeKey = resumeKeyOf(ctx.path, { sha256: createHash('sha256').update(upload.bytes).digest('hex'), filename: upload.filename, type, options });
      const earlier = await findResumable(deps.db, team.teamId, resumeKey);
      if (earlier) {
        ctx.body = { success: true, data: await renderV2Document(deps.db, await parsedPage(deps, earlier, timeoutMs), plan.output, {}, deps.config.llm && { config: deps.config.llm, teamId: team.teamId }) };
        return;
      }
      await requireCredits(deps.db, team.teamId, PRICES.page, 'This parse');

      const jobId = randomUUID();
      // Relative links in the file resolve against a file: URL, which no link list keeps.
      const sourceUrl = `file:///uploads/${encodeURIComponent(upload.filename)}`;
      await createJob(deps.db, { id: jobId, teamId: team.teamId, kind: 'scrape', url: sourceUrl, options: jobOptionsWithV2(plan), ttlHours: deps.config.JOB_TTL_HOURS });
      // Past the client's timeout the parse goes on (its budget) and is stored for the same request sent again.
      const work = parseAndStore(deps, { jobId, teamId: team.teamId, sourceUrl, type, upload, plan, deadline: Date.now() + singlePageBudgetMs(timeoutMs) }).catch(async (err: unknown) => {
        const failure = err instanceof AppError ? { code: err.code, message: err.message } : { code: 'INTERNAL_ERROR', message: 'The file could not be parsed' };
        await failJob(deps.db, jobId, failure).catch((e: unknown) => deps.logger.warn({ err: e, jobId }, "a failed parse's job could not be recorded"));
        throw err;
      });
      const row = await awaitWorkflowResult(work, timeoutMs, 'parse', undefined, { atTimeout: () => continuingError(deps, jobId, timeoutMs) }).catch(async (err: unknown) => {
        if (isContinuing(err)) await markResumable(deps.db, jobId, resumeKey);
        throw err;
      });
      ctx.body = { success: true, data: await renderV2Document(deps.db, row, plan.output, {}, deps.config.llm && { config: deps.config.llm, teamId: team.teamId }) };
    },
  });
}
