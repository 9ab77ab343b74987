import { Context } from '@temporalio/activity';
import type { BrowserScraper } from '../src/browser/browser-scraper';
import { pageCredits } from '../src/credits/pricing';
import type { Db } from '../src/db/client';
import type { PageRow } from '../src/db/page-row';
import { findCachedPage, findStoredPage, storeFailedPage, storeScrapedPage, type StoredPageWithRow } from '../src/jobs/page-store';
import { chargedPerPage, extractsJson, finishesJob, type PageTask, type PageTaskFailure, type PageTaskOutcome } from '../src/jobs/page-task';
import { cachedPageAsScraped } from '../src/jobs/cached-page';
import { contentVariant } from '../src/scrape/content-variant';
import { indexableWith } from '../src/search/index-fields';
import type { HttpScraper, HttpScrapeResult } from '../src/scrape/http-scraper';
import type { ScrapedPage } from '../src/scrape/scraped-page';
import type { ScreenshotStore } from '../src/screenshots/screenshot-store';
import { withAppFailures } from './app-failure';
import { withHeartbeat } from './heartbeat';

/** What the plain-HTTP scrape activity needs: an API process's own scrape worker has no more. */
export interface HttpScrapeActivityDeps {
  db: Db;
  http: HttpScraper;
  /**
   * Told when a page step ends: with the page when it stored it and finished its job with it (a
   * scrape's; not a crawl's page, nor one a json extraction follows), so the API's own scrape
   * worker answers the waiting request; with undefined otherwise (it failed, handed the page on
   * to the browser, or left the job to a later step), so the request waits for the workflow.
   */
  onFinished?: ((jobId: string, page: StoredPageWithRow | undefined) => void) | undefined;
  /**
   * The fetch the API began for a scrape's job while it started the workflow, having found no
   * stored copy to reuse (PrefetchedPages); the activity's first attempt takes it over instead of
   * looking for a copy and fetching again. Undefined when there is none.
   */
  prefetched?: ((jobId: string, cancel: AbortSignal) => Promise<HttpScrapeResult> | undefined) | undefined;
}

export interface ScrapeActivityDeps extends HttpScrapeActivityDeps {
  /** Created on first use, so an HTTP-only worker never starts Chromium. */
  browser: () => BrowserScraper;
  screenshots: ScreenshotStore;
}

const keepsMarkup = (task: Pick<PageTask, 'options' | 'operation'>) => task.options.formats.includes('rawHtml') || extractsJson(task);

/** Stores the page and its charge. The row, when asked for, stays beside the outcome: only the outcome crosses Temporal. */
async function store(db: Db, task: PageTask, page: ScrapedPage, variant: string, returnRow = false): Promise<{ outcome: PageTaskOutcome; row?: PageRow | undefined }> {
  const deferred = extractsJson(task);
  const credits = deferred || !chargedPerPage(task)
    ? 0
    : pageCredits({ renderer: page.renderer, screenshot: task.options.formats.some((f) => f.startsWith('screenshot')), json: false });
  const { row, ...stored } = await storeScrapedPage(db, task, page, { amount: credits, operation: task.operation, idempotencyKey: task.chargeKey }, {
    keepRawHtml: keepsMarkup(task),
    searchable: indexableWith(task.options),
    finishJob: finishesJob(task),
    variant,
    returnRow,
  });
  return { outcome: { kind: 'stored', ...stored }, row };
}

/** A stored copy of the task's page fresh enough to answer it (`maxAge`), from any job; undefined when none may. */
export async function findCachedCopy(db: Db, task: Pick<PageTask, 'urlKey' | 'options' | 'operation'>, variant: string) {
  // Screenshots and action results belong to one render; a stored copy has neither.
  const renderOnly = task.options.actions?.length || task.options.formats.some((f) => f.startsWith('screenshot'));
  if (task.options.maxAge <= 0 || renderOnly) return undefined;
  return findCachedPage(db, task.urlKey, variant, task.options.maxAge, { rawHtml: keepsMarkup(task), html: task.options.formats.includes('html') });
}

/** An earlier attempt's stored page, or a fresh enough copy from any job (`maxAge`). */
async function reuse(db: Db, task: PageTask, variant: string): Promise<PageTaskOutcome | null> {
  // Only a retry can find its own page stored; a first attempt skips the query (storing and
  // charging are idempotent either way).
  const stored = Context.current().info.attempt > 1 ? await findStoredPage(db, task.jobId, task.urlKey) : undefined;
  if (stored) return { kind: 'stored', ...stored };
  const cached = await findCachedCopy(db, task, variant);
  return cached ? (await store(db, task, cachedPageAsScraped(cached), variant)).outcome : null;
}

/** The plain-HTTP page scrape. Idempotent: a page stored by an earlier attempt is returned as is. */
export function createHttpScrapeActivity(deps: HttpScrapeActivityDeps) {
  return {
    /** Fetches over plain HTTP; answers `needs-browser` for pages only a browser can fill. */
    async scrapePageHttp(task: PageTask): Promise<PageTaskOutcome> {
      // A request in this process that waits for the page shows it from the row stored here.
      const waited = finishesJob(task) && deps.onFinished !== undefined;
      let row: PageRow | undefined;
      let outcome: PageTaskOutcome | undefined;
      try {
        outcome = await withAppFailures(async () => {
          const variant = contentVariant(task.options);
          const { info, cancellationSignal } = Context.current();
          // The API begins a fetch only once it found no stored copy to reuse: nothing to look up again.
          const prefetched = info.attempt === 1 ? deps.prefetched?.(task.jobId, cancellationSignal) : undefined;
          const reused = prefetched ? null : await reuse(deps.db, task, variant);
          if (reused) return reused;
          const result = await (prefetched ?? deps.http.scrape(task.url, task.options, task.deadline, cancellationSignal, { fairnessKey: task.teamId }));
          if (result.kind === 'needs-browser') return result;
          const stored = await store(deps.db, task, result.page, variant, waited);
          row = stored.row;
          return stored.outcome;
        });
        return outcome;
      } finally {
        deps.onFinished?.(task.jobId, outcome?.kind === 'stored' && finishesJob(task) ? { ...outcome, ...(row && { row }) } : undefined);
      }
    },
  };
}

/** Page-scrape activities. Each is idempotent: a page stored by an earlier attempt is returned as is. */
export function createScrapeActivities(deps: ScrapeActivityDeps) {
  return {
    ...createHttpScrapeActivity(deps),

    /** Renders in Chromium. */
    async scrapePageBrowser(task: PageTask): Promise<PageTaskOutcome> {
      return withAppFailures(() =>
        withHeartbeat(async () => {
          const variant = contentVariant(task.options);
          const reused = await reuse(deps.db, task, variant);
          if (reused) return reused;
          const save = deps.screenshots.saverFor({ teamId: task.teamId, jobId: task.jobId });
          const page = await deps.browser().scrape(task.url, task.options, task.deadline, Context.current().cancellationSignal, save, { fairnessKey: task.teamId });
          return (await store(deps.db, task, page, variant)).outcome;
        }),
      );
    },

    /** Records a page's final failure (after retries) for the errors endpoint and the job. */
    async recordPageFailure(task: PageTask, failure: PageTaskFailure): Promise<void> {
      await storeFailedPage(deps.db, task, failure, task.finishJob);
    },
  };
}

export type ScrapeActivities = ReturnType<typeof createScrapeActivities>;
