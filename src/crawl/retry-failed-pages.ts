import type { Client } from '@temporalio/client';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { crawlWorkflow, frontierChanged } from '../../workflows';
import type { Config } from '../config/env';
import type { Db } from '../db/client';
import { jobs, pages } from '../db/schema';
import type { JobRow } from '../jobs/job-store';
import { teamCrawlPriority } from '../limits/team-priority';
import { urlKey } from '../url/normalize-url';
import type { CrawlOptions } from './crawl-options';
import { crawlRunInput } from './crawl-run';

export interface RetryDeps {
  db: Db;
  temporal: Client;
  config: Config;
}

/**
 * Puts a crawl's failed pages (all, or those of `urls`) back in its frontier and makes the
 * crawl run again: a running workflow is signalled, a finished one gets a new run under the
 * same workflow id. Pages that succeeded are untouched, so they are neither fetched nor charged
 * again; each page's charge key makes a new success pay exactly once.
 */
export async function retryFailedPages(deps: RetryDeps, job: JobRow, urls?: string[]): Promise<number> {
  const options = job.options as CrawlOptions;
  const workflowId = `crawl-${job.id}`;
  const described = await deps.temporal.workflow
    .getHandle(workflowId)
    .describe()
    .catch(() => null);
  const running = described?.status.name === 'RUNNING';
  const wanted = urls?.length
    ? or(inArray(pages.url, urls), inArray(pages.urlKey, urls.map((u) => urlKey(u, { ignoreQueryParameters: options.ignoreQueryParameters }))))
    : undefined;
  const count = await deps.db.transaction(async (tx) => {
    const reset = await tx
      .update(pages)
      .set({ status: 'queued', attempts: 0, claimId: null, notBefore: null, errorCode: null, error: null })
      .where(and(eq(pages.jobId, job.id), eq(pages.status, 'failed'), wanted))
      .returning({ id: pages.id });
    if (reset.length === 0) return 0;
    // A run that is gone left its claims behind; nothing is working on them any more.
    if (!running) await tx.update(pages).set({ status: 'queued', claimId: null }).where(and(eq(pages.jobId, job.id), eq(pages.status, 'scraping')));
    await tx
      .update(jobs)
      .set({ status: 'scraping', finishedAt: null, errorCode: null, error: null, round: sql`${jobs.round} + 1` })
      .where(eq(jobs.id, job.id));
    return reset.length;
  });
  if (count === 0) return 0;
  await deps.temporal.workflow.signalWithStart(crawlWorkflow, {
    workflowId,
    taskQueue: deps.config.taskQueues.http,
    signal: frontierChanged,
    priority: await teamCrawlPriority(deps.db, job.teamId, deps.config.TEAM_PAGES_IN_FLIGHT),
    signalArgs: [],
    staticSummary: `Retry of the failed pages of crawl ${job.id} (${options.url})`,
    args: [{ ...crawlRunInput(job.id, job.teamId, options, deps.config), state: { seeded: true, batchSeq: 0, counts: { completed: 0, failed: 0 } } }],
  });
  return count;
}
