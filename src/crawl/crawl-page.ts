import type { BrowserScraper } from '../browser/browser-scraper';
import { pageCredits } from '../credits/pricing';
import { chargeStatement } from '../credits/ledger';
import type { LlmConfig } from '../config/env';
import type { LlmFormats } from '../db/llm-formats';
import { textSearchConfigFor } from '../db/text-search-language';
import { LLM_FORMAT_CREDITS, llmFormatCharge, type LlmFormat } from '../firecrawl/v2/llm-charge';
import { readLlmFormats, wantsLlmFormats } from '../firecrawl/v2/page-llm-formats';
import type { V2OutputSpec } from '../firecrawl/v2/scrape-options';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { pages } from '../db/schema';
import { AppError } from '../errors';
import { storeScrapedPage } from '../jobs/page-store';
import { indexableWith } from '../search/index-fields';
import { uncachedVariant } from '../scrape/change-tracking/previous-copy';
import { contentVariant } from '../scrape/content-variant';
import type { HttpScraper } from '../scrape/http-scraper';
import type { ScrapedPage } from '../scrape/scraped-page';
import type { ScreenshotStore } from '../screenshots/screenshot-store';
import type { PageExtractionInput } from '../extract/page-extraction-input';
import { extractsJson, type PageTask } from '../jobs/page-task';
import type { CrawlJob } from './crawl-job';
import { CrawlScope } from './crawl-scope';
import { crawlCandidates } from './discover-links';
import { enqueue, failPage, requeuePage, type Candidate, type ClaimedPage } from './frontier';
import { nextAttemptDelay, parseRetryAfter } from './retry-policy';
import type { RobotsCache } from './robots';
import { webhookEventStatement } from './webhooks/webhook-events';
import type { ProcessingTurn } from '../scrape/process/thread-slots';

export interface CrawlPageDeps {
  db: Db;
  http: HttpScraper;
  browser: () => BrowserScraper;
  robots: RobotsCache;
  screenshots: ScreenshotStore;
  /** Fills the json format of a stored page and charges the page with it (the extract engines). */
  extractPageData: (input: PageExtractionInput) => Promise<unknown>;
  /** The configured LLM: a v2 job's answer, product and menu are read with it as each page is stored. */
  llm?: LlmConfig;
}

export type PageResult = 'scraped' | 'failed' | 'requeued' | 'needs-browser';

/** The variant a crawl's pages are stored under; v2's `storeInCache: false` keeps them from answering later scrapes. */
function storedVariant(options: CrawlJob['options']): string {
  const variant = contentVariant(options.scrapeOptions);
  return options.v2Output?.storeInCache === false ? uncachedVariant(variant) : variant;
}

/** Site answers that mean "try later", not "this is the page". */
function isTransientStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** A crawl page fetched and processed, before anything about it is written. */
export type FetchedPage =
  | { kind: 'needs-browser' }
  | { kind: 'failed'; code: string; message: string; permanent: boolean; retryAfterMs: number | null }
  | { kind: 'scraped'; scraped: ScrapedPage; candidates: Candidate[]; deadline: number };

/** No client waits on a crawl's page: its processing yields threads to pages one does; teams take turns. */
const backgroundTurn = (teamId: string): ProcessingTurn => ({ background: true, fairnessKey: teamId });

/**
 * Fetches and processes one page of a crawl, and finds the links it will follow. Writes
 * nothing, so a batch can fetch its next page while the last one is stored.
 */
export async function fetchCrawlPage(deps: CrawlPageDeps, job: CrawlJob, page: ClaimedPage, engine: 'http' | 'browser', cancel: AbortSignal): Promise<FetchedPage> {
  const { options } = job;
  const scrapeOptions = options.scrapeOptions;
  const deadline = Date.now() + scrapeOptions.timeout;
  let scraped: ScrapedPage;
  try {
    if (engine === 'http') {
      const result = await deps.http.scrape(page.url, scrapeOptions, deadline, cancel, backgroundTurn(job.teamId));
      if (result.kind === 'needs-browser') return { kind: 'needs-browser' };
      scraped = result.page;
    } else {
      scraped = await deps.browser().scrape(page.url, scrapeOptions, deadline, cancel, deps.screenshots.saverFor({ teamId: job.teamId, jobId: job.id }), backgroundTurn(job.teamId));
    }
  } catch (err) {
    if (cancel.aborted) throw err;
    const failure = err instanceof AppError ? err : new AppError('SCRAPE_CONNECTION_ERROR', (err as Error).message);
    return { kind: 'failed', code: failure.code, message: failure.message, permanent: failure.permanent, retryAfterMs: null };
  }
  if (isTransientStatus(scraped.statusCode)) {
    return { kind: 'failed', code: 'SCRAPE_SITE_ERROR', message: `The site answered HTTP ${scraped.statusCode}`, permanent: false, retryAfterMs: parseRetryAfter(scraped.retryAfter) };
  }
  const followsLinks = options.mode === 'crawl' && !options.sitemapOnly;
  const candidates = followsLinks ? await crawlCandidates(scraped.content.links, new CrawlScope(options), options, deps.robots) : [];
  return { kind: 'scraped', scraped, candidates, deadline };
}

/**
 * Writes what fetching a page came to. A stored page and everything it causes (its new links,
 * edges, its charge, its webhook event) commit in one transaction, so a retried batch finds it
 * done. A transient failure puts the page back in the frontier for later; the last attempt, or a
 * permanent failure, records it as failed.
 */
export async function settleCrawlPage(deps: CrawlPageDeps, job: CrawlJob, page: ClaimedPage, fetched: FetchedPage): Promise<PageResult> {
  if (fetched.kind === 'needs-browser') return 'needs-browser';
  if (fetched.kind === 'failed') return settleFailure(deps.db, page, fetched);
  const { scraped, candidates, deadline } = fetched;
  const { options } = job;
  const scrapeOptions = options.scrapeOptions;
  const ref = { jobId: job.id, teamId: job.teamId, url: page.url, urlKey: page.urlKey, depth: page.depth };
  const task: PageTask = { ...ref, options: scrapeOptions, deadline, operation: options.mode, chargeKey: `${options.mode}:${job.id}:${page.urlKey}`, finishJob: false };
  // With the json format the extraction step charges the page, together with its result.
  const deferred = extractsJson(task);
  const price = {
    amount: deferred ? 0 : pageCredits({ renderer: scraped.renderer, screenshot: scrapeOptions.formats.some((f) => f.startsWith('screenshot')), json: false }),
    operation: options.mode,
    idempotencyKey: task.chargeKey,
  };
  const llm = deps.llm && options.v2Output && wantsLlmFormats(options.v2Output) ? await llmFormatsOf(deps.db, deps.llm, scraped, options.v2Output) : undefined;
  const frontier = enqueue(job.id, page.depth + 1, candidates, page.urlKey, page.depth < options.maxDepth);
  const stored = await storeScrapedPage(
    deps.db,
    ref,
    scraped,
    price,
    {
      keepRawHtml: scrapeOptions.formats.includes('rawHtml') || deferred,
      finishJob: false,
      variant: storedVariant(options),
      searchable: indexableWith(scrapeOptions),
      frontierRow: page.id,
      ...(llm && { llmFormats: llm.formats }),
    },
    {
      reads: frontier.reads,
      writes: (pageId, found) => [
        ...frontier.writes(found),
        webhookEventStatement(deps.db, options.webhook, { jobId: job.id, eventKey: `page:${page.urlKey}`, type: 'crawl.page', pageId }),
        ...(llm?.llmUsed ?? []).map((format) => chargeStatement(llmFormatCharge(job.teamId, { id: pageId, jobId: job.id }, format))),
      ],
    },
  );
  if (deferred) {
    await deps.extractPageData({ jobId: job.id, pageId: stored.pageId, spec: scrapeOptions.jsonOptions ?? {}, task }).catch(async (err: unknown) => {
      // The page stays, uncharged, with the reason its json is missing.
      await deps.db.update(pages).set({ warning: `json extraction failed: ${(err as Error).message}` }).where(eq(pages.id, stored.pageId));
    });
  }
  return 'scraped';
}

/**
 * A v2 job's answer, product and menu of a page, read with the LLM before the page is stored,
 * so they are stored and charged with it, and a retried batch (which skips stored pages) never
 * asks the model again. When the LLM fails, they are read from the page alone, uncharged, and
 * say so.
 */
async function llmFormatsOf(db: Db, llm: LlmConfig, scraped: ScrapedPage, output: V2OutputSpec): Promise<{ formats: LlmFormats; llmUsed: LlmFormat[] }> {
  const { content } = scraped;
  const source = { url: scraped.finalUrl, rawHtml: content.rawHtml, markdown: content.markdown, text: content.text, searchLanguage: textSearchConfigFor(content.metadata.language) };
  try {
    const { read, llmUsed } = await readLlmFormats(db, source, output, llm);
    return { formats: { ...read, credits: llmUsed.length * LLM_FORMAT_CREDITS }, llmUsed };
  } catch (err) {
    const { read } = await readLlmFormats(db, source, output);
    const warning = `The LLM failed (${(err as Error).message}); the answer, product and menu are read from the page alone.`;
    return { formats: { ...read, warnings: [warning, ...read.warnings], credits: 0 }, llmUsed: [] };
  }
}

async function settleFailure(db: Db, page: ClaimedPage, failure: Extract<FetchedPage, { kind: 'failed' }>): Promise<PageResult> {
  const delay = failure.permanent ? null : nextAttemptDelay(page.attempts + 1, failure.retryAfterMs);
  if (delay === null) {
    await failPage(db, page.id, failure.code, failure.message);
    return 'failed';
  }
  await requeuePage(db, page.id, new Date(Date.now() + delay), failure.code, failure.message);
  return 'requeued';
}
