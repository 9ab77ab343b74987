import { setTimeout as sleep } from 'node:timers/promises';
import type { WebSocket } from 'ws';
import { crawlCounts } from '../../crawl/crawl-counts';
import type { CrawlOptions } from '../../crawl/crawl-options';
import { pagesById, pagesScrapedSince } from '../../crawl/crawl-results';
import { findJob, type JobRow } from '../../jobs/job-store';
import type { ApiDeps } from '../api-deps';
import { v2DocumentView } from './crawl-document-view';

/** How often a watcher looks for new pages and for the job's end. */
const POLL_MS = 1_000;
/** While a job runs, pages can commit out of `scrapedAt` order; each look reaches this far back (pages already sent are skipped). */
const COMMIT_SKEW_MS = 60_000;
/** Pages sent per look at most; the rest follow at once on the next. */
const PAGES_PER_LOOK = 100;

async function snapshot(deps: ApiDeps, job: JobRow) {
  const counts = await crawlCounts(deps.db, job.id);
  return { status: job.status, total: counts.total, completed: counts.completed, creditsUsed: counts.creditsUsed, expiresAt: job.expiresAt.toISOString(), data: [] };
}

function send(ws: WebSocket, message: unknown): Promise<void> {
  return new Promise((resolve, reject) => ws.send(JSON.stringify(message), (err) => (err ? reject(err) : resolve())));
}

/**
 * Streams a crawl or batch job to a watcher, in the messages the Firecrawl SDK's Watcher reads:
 * `catchup` (the job's counts, when it is still running), one `document` per scraped page, and at
 * the end `done` (completed), `error` (failed) or a `status` snapshot (cancelled); then closes.
 * Reads Postgres like GET /v2/crawl/:id, so it sees what polling sees. Ends when the job ends,
 * expires or the watcher goes away.
 */
export async function streamJob(deps: ApiDeps, ws: WebSocket, teamId: string, jobId: string): Promise<void> {
  const sent = new Set<string>();
  let since = new Date(0);
  let first = true;
  while (ws.readyState === 1) {
    const job = await findJob(deps.db, teamId, jobId);
    if (!job || job.expiresAt.getTime() < Date.now()) return ws.close(1000, 'the job expired');
    const options = job.options as CrawlOptions;
    // Pages are read after the status: when it says the job ended, every page is committed.
    const unsent = (await pagesScrapedSince(deps.db, jobId, since)).filter((p) => !sent.has(p.id));
    const look = unsent.slice(0, PAGES_PER_LOOK);
    if (first && job.status === 'scraping') await send(ws, { type: 'catchup', data: await snapshot(deps, job) });
    first = false;
    for (const row of await pagesById(deps.db, look.map((p) => p.id))) {
      await send(ws, { type: 'document', data: await v2DocumentView.render(row, options, deps.db) });
      sent.add(row.id);
    }
    const last = look.at(-1);
    // Once the job has ended every page is committed, so a replay need not look back.
    if (last) since = new Date(last.scrapedAt.getTime() - (job.status === 'scraping' ? COMMIT_SKEW_MS : 0));
    if (unsent.length > look.length) continue;
    if (job.status !== 'scraping') {
      const end = await snapshot(deps, job);
      if (job.status === 'completed') await send(ws, { type: 'done', data: end });
      else if (job.status === 'failed') await send(ws, { type: 'error', error: job.error ?? 'The job failed', data: end });
      else await send(ws, { type: 'status', data: end });
      return ws.close(1000, job.status);
    }
    await sleep(POLL_MS);
  }
}
