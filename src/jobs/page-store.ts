import { and, desc, eq, gte, isNotNull, ne, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { chargeCtes, chargeStatement, chargeValues, type CreditMovement } from '../credits/ledger';
import { buildOnce, runBuilt, type BuiltStatement } from '../db/built-once';
import type { Db, Queryable } from '../db/client';
import { preparedPerDb } from '../db/prepared-per-db';
import { twoStepTransaction, type Rows } from '../db/two-step-transaction';
import { jobs, pages } from '../db/schema';
import type { LlmFormats } from '../db/llm-formats';
import type { StoredMetadata } from '../db/page-metadata';
import { headingsOf } from '../search/index-fields';
import { textSearchConfigFor } from '../db/text-search-language';
import type { ScrapedPage } from '../scrape/scraped-page';
import { recordStoredPage } from '../metrics/page-metrics';
import { pageColumns, pageRowFromDriver, type PageRow } from '../db/page-row';

/** Which row of which job a page belongs to. */
export interface PageRef {
  jobId: string;
  teamId: string;
  /** The URL as requested or discovered. */
  url: string;
  urlKey: string;
  depth: number;
  /** Id of a new row, generated when absent; a single-page scrape uses its job id, so scrapeId finds the workflow. */
  pageId?: string;
}

export interface PageChargeSpec {
  amount: number;
  operation: string;
  /** Unique per page of a job, e.g. `scrape:<job>` or `crawl:<job>:<urlKey>`. */
  idempotencyKey: string;
}

export interface StoredPage {
  pageId: string;
  statusCode: number;
  credits: number;
}

export interface StoreOptions {
  /** Keep the unprocessed HTML (only when the caller asked for rawHtml). */
  keepRawHtml: boolean;
  /** Also mark the job completed, in the same transaction (single-page jobs). */
  finishJob: boolean;
  variant: string;
  /** May enter the search index (see indexableWith); only pages that answered < 400 do. */
  searchable: boolean;
  /**
   * Answer the stored row too (`StoredPageWithRow`), for a request that waits to show it and
   * need not read it back. Only without effects or a frontier row.
   */
  returnRow?: boolean;
  /**
   * Id of the crawl frontier row the page is stored into, in a transaction with its effects;
   * absent, a row is inserted in one statement (`effects` need a frontier row).
   */
  frontierRow?: string;
  /** A crawl's or batch's LLM formats, read before storing; their credits add to the page's. */
  llmFormats?: LlmFormats;
}

/** A stored page with its row, as `StoreOptions.returnRow` asks; the row stays out of what crosses Temporal. */
export interface StoredPageWithRow extends StoredPage {
  /** The row as this call stored it; absent when an earlier attempt had stored the page. */
  row?: PageRow;
}

/** The stored, successful page of this job at this URL, if an earlier attempt got that far. */
export async function findStoredPage(db: Queryable, jobId: string, urlKey: string): Promise<StoredPage | undefined> {
  // The status is checked here, not in the query, which then has only the (job, URL) index to use.
  const [row] = await db
    .select({ pageId: pages.id, status: pages.status, statusCode: pages.statusCode, credits: pages.credits })
    .from(pages)
    .where(and(eq(pages.jobId, jobId), eq(pages.urlKey, urlKey)));
  return row?.status === 'scraped' ? { pageId: row.pageId, statusCode: row.statusCode ?? 0, credits: row.credits } : undefined;
}

/** Writes that belong in a stored page's transaction (a crawl's new links, a webhook event). */
export interface PageEffects {
  /** Reads to make along with the page's own write. */
  reads: SQLWrapper[];
  /** The writes, from the page's id and what `reads` returned; they go out with COMMIT. */
  writes(pageId: string, reads: Rows[]): (SQLWrapper | null)[];
}

/** What storing a page writes into its row, besides its identity (id, job, URL, depth) and its attempts. */
const STORED_COLUMNS = [
  'status',
  'variant',
  'statusCode',
  'title',
  'description',
  'headings',
  'searchable',
  'searchLanguage',
  'searchVector',
  'markdown',
  'html',
  'rawHtml',
  'text',
  'links',
  'screenshot',
  'actions',
  'branding',
  'llmFormats',
  'warning',
  'metadata',
  'errorCode',
  'error',
  'credits',
  'scrapedAt',
] as const satisfies readonly (keyof typeof pages.$inferInsert)[];

type StoredColumn = (typeof STORED_COLUMNS)[number];
type StoredValues = { [K in StoredColumn]: (typeof pages.$inferInsert)[K] };

/** What varies the text of the one-statement store; each shape is built once (`singleStatement`). */
interface StatementShape {
  /** The row's id is given (a single-page scrape's is its job's). */
  withId: boolean;
  returnRow: boolean;
  finishJob: boolean;
  /** A charge is taken (a page priced at 0 has none). */
  charged: boolean;
}

const singleStatements = new Map<string, BuiltStatement>();

/**
 * The page, its charge and its job's completion as CTEs of one WITH, gated on the page's write,
 * with placeholders for every value. A page already stored keeps its row: the proposed row
 * (`excluded`) replaces it only while it is not. `db` only builds it: the text is the same for any.
 */
function singleStatement(db: Db, shape: StatementShape): BuiltStatement {
  const key = JSON.stringify(shape);
  let built = singleStatements.get(key);
  if (!built) {
    const stored = Object.fromEntries(STORED_COLUMNS.map((column) => [column, sql.placeholder(column)])) as Record<StoredColumn, Placeholder>;
    const proposed = Object.fromEntries(STORED_COLUMNS.map((column) => [column, sql.raw(`excluded.${pages[column].name}`)])) as Record<StoredColumn, SQL>;
    const write = db
      .insert(pages)
      .values({
        ...(shape.withId && { id: sql.placeholder('id') }),
        jobId: sql.placeholder('jobId'),
        urlKey: sql.placeholder('urlKey'),
        url: sql.placeholder('url'),
        depth: sql.placeholder('depth'),
        ...stored,
        attempts: 1,
      })
      .onConflictDoUpdate({ target: [pages.jobId, pages.urlKey], set: { ...proposed, attempts: sql`${pages.attempts} + 1` }, setWhere: ne(pages.status, 'scraped') })
      .returning(shape.returnRow ? pageColumns : { id: pages.id });
    const written = sql`exists (select 1 from page)`;
    const finish = sql`update ${jobs} set status = 'completed', finished_at = ${sql.placeholder('finishedAt')}::timestamptz where id = ${sql.placeholder('jobId')}::uuid and ${written}`;
    // A builder in a template is wrapped as a subquery, which WITH refuses for a write: its SQL is not.
    const ctes = [sql`page as (${write.getSQL()})`, shape.charged ? chargeCtes(written) : null, shape.finishJob ? sql`finished as (${finish})` : null].filter((cte) => cte !== null);
    built = buildOnce(sql`with ${sql.join(ctes, sql`, `)} select * from page`);
    singleStatements.set(key, built);
  }
  return built;
}

/**
 * Stores a scraped page and its charge atomically. A page already stored by an earlier attempt
 * wins: its row is left as it is, and neither effects nor a second charge are written.
 *
 * Into a frontier row (a crawl's page), in one transaction: the page's row (and the effects'
 * reads), then the effects, the charge and COMMIT together, so the rows every page of a crawl
 * or team shares (job, balance) are locked only while Postgres runs them (see
 * twoStepTransaction). Otherwise in one statement built once (`singleStatement`): the page,
 * the charge and the job's completion, in a single round trip (a scrape's answer waits for it).
 */
export async function storeScrapedPage(
  db: Db,
  ref: PageRef,
  page: ScrapedPage,
  price: PageChargeSpec,
  options: StoreOptions,
  effects?: PageEffects,
): Promise<StoredPageWithRow> {
  const { content } = page;
  const metadata: StoredMetadata = {
    ...content.metadata,
    sourceURL: ref.url,
    url: page.finalUrl,
    statusCode: page.statusCode,
    ...(page.contentType && { contentType: page.contentType }),
    renderer: page.renderer,
    ...(page.cachedAt && { cacheState: 'hit' as const, cachedAt: page.cachedAt }),
    ...(content.mainContent && { mainContent: content.mainContent }),
    timing: page.timing,
  };
  const credits = price.amount + (options.llmFormats?.credits ?? 0);
  const scrapedAt = new Date();
  const values: StoredValues = {
    status: 'scraped',
    variant: options.variant,
    statusCode: page.statusCode,
    title: content.metadata.title ?? null,
    description: content.metadata.description ?? null,
    headings: headingsOf(content.markdown),
    searchable: options.searchable && page.statusCode < 400,
    searchLanguage: textSearchConfigFor(content.metadata.language),
    // Indexed after storing, by the search indexer (a stored page's content is written once; this keeps any rewrite honest).
    searchVector: null,
    markdown: content.markdown,
    html: content.html ?? null,
    rawHtml: options.keepRawHtml ? content.rawHtml : null,
    text: content.text,
    links: content.links,
    screenshot: page.screenshot ?? null,
    actions: page.actions ?? null,
    branding: page.branding ?? null,
    llmFormats: options.llmFormats ?? null,
    warning: content.warning ?? null,
    metadata,
    errorCode: null,
    error: null,
    credits,
    scrapedAt,
  };
  const charge: CreditMovement = { teamId: ref.teamId, amount: price.amount, operation: price.operation, jobId: ref.jobId, idempotencyKey: price.idempotencyKey };
  let pageId: string | undefined;
  let row: PageRow | undefined;
  if (options.frontierRow) {
    const write = db
      .update(pages)
      .set({ ...values, attempts: sql`${pages.attempts} + 1` })
      .where(and(eq(pages.id, options.frontierRow), ne(pages.status, 'scraped')))
      .returning({ id: pages.id });
    await twoStepTransaction(db, [write, ...(effects?.reads ?? [])], ([written, ...reads]) => {
      pageId = written?.[0]?.id as string | undefined;
      if (!pageId) return [];
      return [
        ...(effects?.writes(pageId, reads) ?? []),
        // Last: the team's balance row is shared by all its jobs' transactions.
        chargeStatement(charge),
        options.finishJob ? db.update(jobs).set({ status: 'completed', finishedAt: new Date() }).where(eq(jobs.id, ref.jobId)) : null,
      ].filter((statement) => statement !== null);
    });
  } else {
    if (effects) throw new Error('A page stored with effects is stored into its frontier row');
    const shape = { withId: ref.pageId !== undefined, returnRow: options.returnRow === true, finishJob: options.finishJob, charged: charge.amount > 0 };
    const [stored] = await runBuilt(db, singleStatement(db, shape), {
      ...values,
      ...(shape.withId && { id: ref.pageId }),
      jobId: ref.jobId,
      urlKey: ref.urlKey,
      url: ref.url,
      depth: ref.depth,
      ...(shape.charged && chargeValues(charge)),
      ...(shape.finishJob && { finishedAt: scrapedAt.toISOString() }),
    });
    pageId = stored?.id as string | undefined;
    if (stored && shape.returnRow) row = pageRowFromDriver(stored);
  }
  if (!pageId) return (await findStoredPage(db, ref.jobId, ref.urlKey))!;
  recordStoredPage(price.operation, page.renderer, page.timing, price.amount);
  return { pageId, statusCode: page.statusCode, credits, ...(row && { row }) };
}

export interface PageFailure {
  code: string;
  message: string;
  attempts: number;
}

/** Records that a page failed for good; a page that succeeded meanwhile, and its job, are left alone. */
export async function storeFailedPage(db: Db, ref: PageRef, failure: PageFailure, finishJob: boolean): Promise<void> {
  const values = { status: 'failed' as const, errorCode: failure.code, error: failure.message, attempts: failure.attempts };
  await db.transaction(async (tx) => {
    await tx
      .insert(pages)
      .values({ ...(ref.pageId && { id: ref.pageId }), jobId: ref.jobId, urlKey: ref.urlKey, url: ref.url, depth: ref.depth, ...values })
      .onConflictDoUpdate({ target: [pages.jobId, pages.urlKey], set: values, setWhere: ne(pages.status, 'scraped') });
    if (finishJob) {
      // Nor a job its page completed: a stored page may already have been answered, and a
      // workflow that lost that attempt's result (its worker died) records a failure after it.
      await tx
        .update(jobs)
        .set({ status: 'failed', errorCode: failure.code, error: failure.message, finishedAt: new Date() })
        .where(and(eq(jobs.id, ref.jobId), ne(jobs.status, 'completed')));
    }
  });
}

/** What a cached copy must hold besides the formats every page stores. */
export interface CachedPageNeeds {
  rawHtml: boolean;
  /** The cleaned HTML, stored only when a scrape asked for the html format. */
  html: boolean;
}

/**
 * The lookup of a cached copy by what it must hold: four shapes (bit 2 the raw HTML, bit 1 the
 * cleaned), each made once (prepared-per-db.ts): a v2 scrape looks for a copy by default.
 */
const cachedPageQueries = [0, 1, 2, 3].map((shape) =>
  preparedPerDb((db) =>
    db
      .select(pageColumns)
      .from(pages)
      .where(
        and(
          eq(pages.urlKey, sql.placeholder('urlKey')),
          eq(pages.variant, sql.placeholder('variant')),
          eq(pages.status, 'scraped'),
          gte(pages.scrapedAt, sql.placeholder('since')),
          ...(shape & 2 ? [isNotNull(pages.rawHtml)] : []),
          ...(shape & 1 ? [isNotNull(pages.html)] : []),
        ),
      )
      .orderBy(desc(pages.scrapedAt))
      .limit(1)
      .prepare(`cached_page_${shape}`),
  ),
);

/** The newest stored copy of a URL with the same content variant, no older than `maxAgeMs`. */
export async function findCachedPage(db: Db, urlKey: string, variant: string, maxAgeMs: number, needs: CachedPageNeeds) {
  const query = cachedPageQueries[(needs.rawHtml ? 2 : 0) + (needs.html ? 1 : 0)]!(db);
  // A placeholder in a condition is not encoded by the column, as one in an insert's values is: the driver takes text.
  const [row] = await query.execute({ urlKey, variant, since: new Date(Date.now() - maxAgeMs).toISOString() });
  return row;
}
