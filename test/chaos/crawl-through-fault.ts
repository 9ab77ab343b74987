import { waitFor } from '../../src/dev/child-process';
import type { Database } from '../../src/db/client';
import { auditCrawl } from './crawl-audit';
import type { ChaosSite } from './chaos-site';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How big a scenario's crawl is. */
export interface ChaosSize {
  pages: number;
  /** Milliseconds each page takes to answer, so the crawl lasts long enough to disturb. */
  pageDelayMs: number;
}

/** One row of the results table. */
export interface ChaosResult {
  /** What was done. */
  scenario: string;
  /** Pages the crawl should store. */
  pages: number;
  /** Pages stored as scraped. */
  stored: number;
  /** Pages failed for good. */
  failed: number;
  /** Must be 0. */
  lost: number;
  /** Must be 0. */
  chargedTwice: number;
  /** Must be 0: a stored page without its charge. */
  uncharged: number;
  /** How long the fault lasted (a kill: 0), ms. */
  faultMs: number;
  /** From the end of the fault until the service made progress again (a page stored, a poll answered), ms. */
  recoverMs: number | undefined;
  /** Anything else the scenario measured. */
  detail: string;
  /** Must be 0 where counted: errors clients met beyond the request each had in flight on a killed process. */
  clientErrors?: number;
}

/** A crawl's status answer, or undefined while the API does not answer. */
export interface CrawlStatus {
  status: string;
  completed: number;
  total: number;
  failed?: number;
}

/**
 * The crawl's status from the first of `apiUrls` that answers (a client that knows several
 * replicas tries the next when one fails), or undefined while none does.
 */
export async function crawlStatus(apiUrls: string | string[], key: string, id: string): Promise<CrawlStatus | undefined> {
  for (const apiUrl of [apiUrls].flat()) {
    try {
      const response = await fetch(`${apiUrl}/v1/crawl/${id}?limit=1`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(5_000) });
      if (response.status === 200) return (await response.json()) as CrawlStatus;
    } catch {
      // this replica does not answer: the next one
    }
  }
  return undefined;
}

export interface Fault {
  /** Runs the fault on the crawl `crawlId`; resolves when it is over (the process killed, the dependency back). */
  inject(crawlId: string): Promise<void>;
  /** Progress after the fault, instead of "a new page stored" (the API scenario: a poll answered). */
  progressed?: (before: number | undefined, now: { completed: number } | undefined) => boolean;
}

/**
 * Crawls `site` through the first of `apiUrls` (polling the first that answers), injects `fault`
 * once a third of it is stored, and audits the rows once the crawl ends: every page stored once
 * and charged once.
 */
export async function crawlThroughFault(scenario: string, apiUrls: string[], db: Database, key: string, site: ChaosSite, fault: Fault, detail = ''): Promise<ChaosResult> {
  const response = await fetch(`${apiUrls[0]}/v1/crawl`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: site.url, limit: site.pages, maxDepth: 50, ignoreSitemap: true, maxConcurrency: 4 }),
  });
  if (response.status !== 200) throw new Error(`${scenario}: POST /v1/crawl answered ${response.status}: ${await response.text()}`);
  const { id } = (await response.json()) as { id: string };
  await waitFor(`${scenario}: a third of the crawl`, async () => ((await crawlStatus(apiUrls, key, id))?.completed ?? 0) >= site.pages / 3, 120_000);
  const atFault = (await crawlStatus(apiUrls, key, id))?.completed;
  const faultStarted = Date.now();
  await fault.inject(id);
  const faultEnded = Date.now();
  // Pages in flight may be stored during the fault (a page needs Postgres, not Temporal):
  // progress is a page stored after it.
  const progressed = fault.progressed ?? ((b, now) => b !== undefined && (now?.completed ?? 0) > b);
  let before: number | undefined;
  let recoverMs: number | undefined;
  let last: Awaited<ReturnType<typeof crawlStatus>>;
  // A deadline, not a measure: a loaded machine (the cluster runs six processes besides Postgres) crawls slowly.
  const deadline = Date.now() + 600_000;
  for (;;) {
    last = await crawlStatus(apiUrls, key, id);
    // Progress is judged against the first answer after the fault (pages in flight may have
    // been stored during it); a crawl already over at that first answer progressed since the
    // fault began.
    const baseline = before ?? (last && last.status !== 'scraping' ? atFault : undefined);
    // A crawl that completes after that first answer progressed too, even when every page was
    // already stored when the first answer came (the API can come back after the worker).
    const completedSince = before !== undefined && last?.status === 'completed';
    if (recoverMs === undefined && (progressed(baseline, last) || completedSince)) recoverMs = Date.now() - faultEnded;
    before ??= last?.completed;
    if (last && last.status !== 'scraping') break;
    if (Date.now() > deadline) throw new Error(`${scenario}: crawl ${id} not finished after the fault: ${JSON.stringify(last)}`);
    await sleep(200);
  }
  const audit = await auditCrawl(db.db, id, site.pages);
  return {
    scenario,
    pages: site.pages,
    ...audit,
    faultMs: faultEnded - faultStarted,
    recoverMs,
    detail: `crawl ${last.status}${detail ? `; ${detail}` : ''}`,
  };
}

