import { setTimeout as sleep } from 'node:timers/promises';
import { CancelledFailure, Context } from '@temporalio/activity';
import { crawlCounts, type CrawlCounts } from '../src/crawl/crawl-counts';
import { CrawlJobCache } from '../src/crawl/crawl-job';
import { fetchCrawlPage, settleCrawlPage, type CrawlPageDeps, type PageResult } from '../src/crawl/crawl-page';
import { finishCrawl, type CrawlEnd } from '../src/crawl/finish-crawl';
import { hostDelayMs } from '../src/crawl/host-delay';
import { claimBatches, failUnfinished, pendingPagesOf, type ClaimResult } from '../src/crawl/frontier';
import { seedCrawl, type SeedDeps } from '../src/crawl/seed-crawl';
import { deliverDueWebhooks, type DeliveryProgress } from '../src/crawl/webhooks/deliver-webhooks';
import type { GuardedFetcher } from '../src/net/guarded-fetcher';
import { withHeartbeat } from './heartbeat';

export interface CrawlActivityDeps extends CrawlPageDeps, SeedDeps {
  fetcher: GuardedFetcher;
  /** Most pages one batch activity takes. */
  maxBatchSize: number;
  /** Most batches in flight against one host. */
  perHostBatches: number;
  /** Pages one team fetches at once unless it has a limit of its own (TEAM_PAGES_IN_FLIGHT). */
  teamPagesInFlight: number;
}

/** A claimed batch as the workflow sees it: enough to name it in the Temporal UI. */
export interface ClaimedBatch {
  claimId: string;
  firstUrl: string;
  size: number;
}

export interface BatchOutcome {
  /** Pages of this batch that only a browser can render; the workflow sends them on. */
  needsBrowser: number;
  /** The crawl's totals after this batch, for the workflow's search attributes. */
  counts: CrawlCounts;
}

/** Crawl activities. Each is idempotent: a retry finds the frontier as the last attempt left it. */
export function createCrawlActivities(deps: CrawlActivityDeps) {
  const jobs = new CrawlJobCache(deps.db);

  /**
   * Pages in order, each fetched while the one before is being stored (one request at a time
   * still). A retry starts from the first page not yet settled, as Postgres records.
   */
  async function runBatch(jobId: string, claimId: string, engine: 'http' | 'browser'): Promise<BatchOutcome> {
    const context = Context.current();
    const job = await jobs.get(jobId);
    const pending = await pendingPagesOf(deps.db, jobId, claimId);
    // A batch's pages are all of one host.
    const delayMs = pending[0] ? await hostDelayMs(deps, jobId, job.options, pending[0].url) : 0;
    let needsBrowser = 0;
    let settling: Promise<PageResult> | undefined;
    const settled = async () => {
      const result = await settling;
      settling = undefined;
      if (result === 'needs-browser') needsBrowser++;
    };
    let progress = { claimId, done: 0, of: pending.length, url: pending[0]?.url };
    await withHeartbeat(async () => {
      try {
        for (const [done, page] of pending.entries()) {
          progress = { ...progress, done, url: page.url };
          context.heartbeat(progress);
          // Cancelled: stop before the next page, so nothing is stored after the crawl ends.
          if (context.cancellationSignal.aborted) throw new CancelledFailure('crawl cancelled');
          if (delayMs > 0) await sleep(delayMs, undefined, { signal: context.cancellationSignal });
          const fetched = await fetchCrawlPage(deps, job, page, engine, context.cancellationSignal);
          await settled();
          settling = settleCrawlPage(deps, job, page, fetched);
          // Its failure surfaces when it is awaited, after the next fetch; until then it is handled.
          settling.catch(() => undefined);
        }
      } finally {
        // The page being stored is finished even when the batch stops early.
        await settled();
      }
    }, () => progress);
    return { needsBrowser, counts: await crawlCounts(deps.db, jobId) };
  }

  return {
    /** Puts the start URL and sitemap URLs (or a batch's URLs) in the frontier. */
    async seedCrawl(input: { jobId: string }): Promise<void> {
      await seedCrawl(deps, await jobs.get(input.jobId));
    },

    /** Claims the next batches breadth-first; run as a local activity, idempotent per claim id. */
    async claimCrawlBatches(input: { jobId: string; claimIds: string[] }): Promise<Omit<ClaimResult, 'batches'> & { claimed: ClaimedBatch[] }> {
      const job = await jobs.get(input.jobId);
      const result = await claimBatches(deps.db, input.jobId, input.claimIds, {
        maxBatchSize: deps.maxBatchSize,
        perHostBatches: job.options.delayMs > 0 ? 1 : deps.perHostBatches,
        team: { id: job.teamId, pagesInFlight: deps.teamPagesInFlight },
      });
      return {
        claimed: result.batches.map((b) => ({ claimId: b.claimId, firstUrl: b.pages[0]?.url ?? '', size: b.pages.length })),
        exhausted: result.exhausted,
        nextReadyAt: result.nextReadyAt,
      };
    },

    /** Scrapes a claimed batch over plain HTTP, heartbeating per page. */
    async crawlBatch(input: { jobId: string; claimId: string }): Promise<BatchOutcome> {
      return runBatch(input.jobId, input.claimId, 'http');
    },

    /** Renders in Chromium what is left of a batch (app shells, or options that need a browser). */
    async crawlBatchBrowser(input: { jobId: string; claimId: string }): Promise<BatchOutcome> {
      return runBatch(input.jobId, input.claimId, 'browser');
    },

    /** Fails the pages a batch could not finish after all its retries, so the crawl can end. */
    async abandonBatch(input: { jobId: string; claimId: string; reason: string }): Promise<void> {
      await failUnfinished(deps.db, input.jobId, input.claimId, 'CRAWL_BATCH_FAILED', input.reason);
    },

    /** Records the end of a crawl; false when pages were put back meanwhile (a retry). */
    async finishCrawl(input: { jobId: string; end: CrawlEnd; error?: string }): Promise<boolean> {
      return finishCrawl(deps.db, await jobs.get(input.jobId), input.end, input.error);
    },

    /** Delivers due webhook events in order; reports when to come back. */
    async deliverWebhooks(input: { jobId: string }): Promise<DeliveryProgress> {
      const context = Context.current();
      return deliverDueWebhooks(deps.db, deps.fetcher, input.jobId, () => context.heartbeat());
    },
  };
}

export type CrawlActivities = ReturnType<typeof createCrawlActivities>;
