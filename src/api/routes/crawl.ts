import { and, desc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { crawlOptionsOf, crawlRequestSchema, type CrawlOptions } from '../../crawl/crawl-options';
import { crawlCounts } from '../../crawl/crawl-counts';
import { crawlErrors, crawlPages, crawlGraph, graphToDot, MAX_PAGE_SIZE } from '../../crawl/crawl-results';
import { retryFailedPages } from '../../crawl/retry-failed-pages';
import { submitCrawl } from '../../crawl/submit-crawl';
import { jobs } from '../../db/schema';
import { AppError } from '../../errors';
import { findJob, type JobRow } from '../../jobs/job-store';
import type { Db } from '../../db/client';
import type { PageRow } from '../../db/page-row';
import { pageToDocument, type Document } from '../../firecrawl/v1/document';
import type { ApiDeps } from '../api-deps';
import { checkTarget } from '../preflight';
import type { RouteContext, RouteTable } from '../route';
import { documentSchema } from '../../firecrawl/v1/document-schema';

const CRAWL_KINDS = ['crawl', 'batch'] as const;

/** The team's crawl or batch job named in the path, or 404. */
export async function requireCrawlJob(deps: ApiDeps, ctx: RouteContext): Promise<JobRow> {
  const job = await findJob(deps.db, ctx.state.team.teamId, ctx.params.id ?? '');
  if (!job || !(CRAWL_KINDS as readonly string[]).includes(job.kind)) throw new AppError('NOT_FOUND', `No crawl ${ctx.params.id}`);
  return job;
}

export const statusQuerySchema = z.object({
  skip: z.coerce.number().int().min(0).default(0).describe('Documents to skip.'),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(MAX_PAGE_SIZE).describe(`Documents to return (at most ${MAX_PAGE_SIZE}, and about 10 MB).`),
});

/** How status answers render stored pages: as v1 documents, or (under /v2) v2 ones. */
export interface DocumentView<D> {
  /** A stored page as a document, given its job's options (v2 answers read the database). */
  render: (row: PageRow, options: CrawlOptions, db: Db) => D | Promise<D>;
  /** The rendered document's schema, for the OpenAPI document. */
  schema: z.ZodType;
}

export const v1DocumentView: DocumentView<Document> = { render: (row, options) => pageToDocument(row, options.scrapeOptions.formats), schema: documentSchema };

/** The status answer's schema, with documents of `document`. */
export function crawlStatusSchemaOf(document: z.ZodType) {
  return z.object({
    success: z.literal(true),
    status: z.enum(['scraping', 'completed', 'failed', 'cancelled']),
    total: z.number().int().describe('Pages discovered and admitted to the crawl (queued, in flight or done).'),
    completed: z.number().int(),
    failed: z.number().int(),
    creditsUsed: z.number().int(),
    expiresAt: z.string(),
    next: z.string().optional().describe('Absolute URL of the next page of documents; absent on the last page.'),
    error: z.string().optional(),
    data: z.array(document),
  });
}

export const crawlErrorsSchema = z.object({
  success: z.literal(true),
  errors: z.array(z.object({ id: z.string(), timestamp: z.string(), url: z.string(), error: z.string(), code: z.string(), attempts: z.number().int() })),
  robotsBlocked: z.array(z.string()),
});

/** The status answer of a crawl or batch job, read from Postgres, with documents rendered by `view`. */
export async function jobStatus<D>(deps: ApiDeps, job: JobRow, skip: number, limit: number, basePath: string, view: DocumentView<D>) {
  const options = job.options as CrawlOptions;
  const [counts, page] = await Promise.all([crawlCounts(deps.db, job.id), crawlPages(deps.db, job.id, (row) => view.render(row, options, deps.db), skip, limit)]);
  return {
    success: true as const,
    status: job.status,
    total: counts.total,
    completed: counts.completed,
    failed: counts.failed,
    creditsUsed: counts.creditsUsed,
    expiresAt: job.expiresAt.toISOString(),
    ...(page.more && { next: `${deps.config.PUBLIC_URL}${basePath}/${job.id}?skip=${skip + page.data.length}&limit=${limit}` }),
    ...(job.error && { error: job.error }),
    data: page.data,
  };
}

/** The team's running crawls and batches, newest first. */
export async function activeCrawls(deps: ApiDeps, teamId: string) {
  const rows = await deps.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.teamId, teamId), eq(jobs.status, 'scraping'), inArray(jobs.kind, [...CRAWL_KINDS])))
    .orderBy(desc(jobs.createdAt));
  return rows.map((j) => ({ id: j.id, teamId: j.teamId, url: j.url ?? '', options: j.options as Record<string, unknown> }));
}

export const activeCrawlsSchema = z.object({ success: z.literal(true), crawls: z.array(z.object({ id: z.string(), teamId: z.string(), url: z.string(), options: z.record(z.string(), z.unknown()) })) });

/** Cancels the run; finished pages stay. A crawl that already ended keeps its status. */
export async function cancelCrawl(deps: ApiDeps, job: JobRow): Promise<string> {
  if (job.status !== 'scraping') return job.status;
  await deps.db.update(jobs).set({ status: 'cancelled', finishedAt: new Date() }).where(and(eq(jobs.id, job.id), eq(jobs.status, 'scraping')));
  await deps.temporal.workflow
    .getHandle(`crawl-${job.id}`)
    .cancel()
    .catch(() => {});
  return 'cancelled';
}

/** Where and how registerJobStatusRoutes serves a kind of job. */
export interface JobRoutes<D> {
  /** Path prefix, e.g. `/v1/crawl`. */
  base: string;
  /** What the job is called in the documentation. */
  label: string;
  /** OpenAPI tag of the routes. */
  tag: string;
  /** How the status answer renders stored pages. */
  view: DocumentView<D>;
  /** Added to the status route's description. */
  statusNote?: string;
}

/**
 * Status, cancel and errors of a crawl job under `base`. A batch scrape is a crawl too, so the
 * same routes serve /v1/crawl/:id and /v1/batch/scrape/:id (and their /v2 twins), for either kind
 * of job.
 */
export function registerJobStatusRoutes<D>(routes: RouteTable, deps: ApiDeps, { base, label, tag, view, statusNote }: JobRoutes<D>): void {
  routes.add({
    method: 'get',
    path: `${base}/:id`,
    tag,
    summary: `Status and pages of a ${label}`,
    description: `Reads Postgres, so pages appear while the crawl runs. Follow \`next\` for more documents.${statusNote ? ` ${statusNote}` : ''}`,
    auth: true,
    query: statusQuerySchema,
    responses: { 200: { description: 'Status and a page of documents', schema: crawlStatusSchemaOf(view.schema) }, 404: { description: `No such ${label} for this team` } },
    handler: async (ctx, { query }) => {
      ctx.body = await jobStatus(deps, await requireCrawlJob(deps, ctx), query.skip, query.limit, base, view);
    },
  });

  routes.add({
    method: 'delete',
    path: `${base}/:id`,
    tag,
    summary: `Cancel a ${label}`,
    description: 'In-flight pages stop; pages already scraped are kept.',
    auth: true,
    responses: { 200: { description: 'Cancelled', schema: z.object({ success: z.literal(true), status: z.string() }) }, 404: { description: `No such ${label}` } },
    handler: async (ctx) => {
      ctx.body = { success: true, status: await cancelCrawl(deps, await requireCrawlJob(deps, ctx)) };
    },
  });

  for (const method of ['get', 'delete'] as const) {
    routes.add({
      method,
      path: `${base}/:id/errors`,
      tag,
      summary: `Pages of a ${label} that failed, and URLs robots.txt blocked`,
      description: 'GET and DELETE answer the same (the Firecrawl v1 SDK sends DELETE).',
      auth: true,
      responses: { 200: { description: 'Errors', schema: crawlErrorsSchema }, 404: { description: `No such ${label}` } },
      handler: async (ctx) => {
        ctx.body = { success: true, ...(await crawlErrors(deps.db, (await requireCrawlJob(deps, ctx)).id)) };
      },
    });
  }
}

export function registerCrawlRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v1/crawl',
    tag: 'Crawling',
    summary: 'Start a crawl',
    description:
      'Starts `crawl-<id>` and answers at once. `limit` is clamped to what the team\'s credits cover. Send `x-idempotency-key` to make a resubmission return the same job.',
    auth: true,
    body: crawlRequestSchema,
    responses: {
      200: { description: 'The crawl started', schema: z.object({ success: z.literal(true), id: z.string(), url: z.string() }) },
      402: { description: 'No credits at all (INSUFFICIENT_CREDITS)' },
      403: { description: 'The start URL is not public (URL_BLOCKED)' },
      409: { description: 'x-idempotency-key reused with another body (IDEMPOTENCY_CONFLICT)' },
    },
    handler: async (ctx, { body }) => {
      await checkTarget(deps.gate, body.url);
      const idempotencyKey = ctx.get('x-idempotency-key') || undefined;
      const { origin: _o, integration: _i, ...request } = body;
      const id = await submitCrawl(deps, { teamId: ctx.state.team.teamId, options: crawlOptionsOf(body), body: request, ...(idempotencyKey && { idempotencyKey }) });
      ctx.body = { success: true, id, url: `${deps.config.PUBLIC_URL}/v1/crawl/${id}` };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/crawl/active',
    tag: 'Crawling',
    summary: "The team's running crawls",
    auth: true,
    responses: { 200: { description: 'Running crawls and batches', schema: activeCrawlsSchema } },
    handler: async (ctx) => {
      ctx.body = { success: true, crawls: await activeCrawls(deps, ctx.state.team.teamId) };
    },
  });

  registerJobStatusRoutes(routes, deps, { base: '/v1/crawl', label: 'crawl', tag: 'Crawling', view: v1DocumentView });

  routes.add({
    method: 'get',
    path: '/v1/crawl/:id/graph',
    tag: 'Crawling',
    summary: 'The crawl graph: every URL found and the links between them',
    auth: true,
    query: z.object({ format: z.enum(['json', 'dot']).default('json').describe('`dot` answers Graphviz text.') }),
    responses: {
      200: {
        description: 'Nodes and edges (JSON), or Graphviz DOT with ?format=dot',
        schema: z.object({
          success: z.literal(true),
          nodes: z.array(z.object({ url: z.string(), depth: z.number().int(), status: z.string(), statusCode: z.number().int().nullable() })),
          edges: z.array(z.object({ from: z.string(), to: z.string() })),
        }),
      },
      404: { description: 'No such crawl' },
    },
    handler: async (ctx, { query }) => {
      const graph = await crawlGraph(deps.db, (await requireCrawlJob(deps, ctx)).id);
      if (query.format === 'dot') {
        ctx.type = 'text/vnd.graphviz; charset=utf-8';
        ctx.body = graphToDot(graph);
      } else {
        ctx.body = { success: true, ...graph };
      }
    },
  });

  routes.add({
    method: 'post',
    path: '/v1/crawl/:id/retry',
    tag: 'Crawling',
    summary: 'Scrape the failed pages of a crawl again',
    description: 'All failed pages, or those in `urls`. The job goes back to `scraping`; pages that succeeded before are neither scraped nor charged again.',
    auth: true,
    body: z.strictObject({ urls: z.array(z.string().min(1)).max(10_000).optional().describe('Only these failed URLs.') }),
    responses: {
      200: { description: 'How many pages are being retried', schema: z.object({ success: z.literal(true), id: z.string(), retrying: z.number().int() }) },
      404: { description: 'No such crawl' },
    },
    handler: async (ctx, { body }) => {
      const job = await requireCrawlJob(deps, ctx);
      ctx.body = { success: true, id: job.id, retrying: await retryFailedPages(deps, job, body.urls) };
    },
  });
}
