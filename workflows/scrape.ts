import { ApplicationFailure, CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { ScrapeActivities } from '../activities/scrape-page';
import type { PageTask } from '../src/jobs/page-task';
import { singlePageBudgetMs } from '../src/scrape/page-budget';
import { describeFailure, pageActivities, scrapePage, type StoredOutcome } from './page-activities';

export interface ScrapeWorkflowInput {
  task: Omit<PageTask, 'deadline'>;
  browserQueue: string;
}

const { recordPageFailure } = proxyActivities<ScrapeActivities>({ startToCloseTimeout: '30s', retry: { maximumAttempts: 5 } });

/** What a scrape cancelled by the API (its client gave up) records. */
const CANCELLED = { code: 'SCRAPE_CANCELLED', message: 'The client stopped waiting; the scrape was cancelled', attempts: 1 };

/**
 * POST /v1/scrape: one page, stored with its charge; the API reads the result from Postgres.
 * It runs to its page budget even after the API answered its client 408 (a client asking again
 * gets this run's page). Cancelled (the client closed its connection), its activity stops through its abort signal and the job is
 * still recorded as failed, so it no longer counts as work in flight.
 */
export async function scrapeWorkflow({ task: input, browserQueue }: ScrapeWorkflowInput): Promise<StoredOutcome> {
  // Past its client's `timeout` the page is still worked on (the client is told to ask again).
  const budgetMs = singlePageBudgetMs(input.options.timeout);
  const task: PageTask = { ...input, deadline: Date.now() + budgetMs };
  try {
    return await scrapePage(task, pageActivities(budgetMs, browserQueue));
  } catch (err) {
    const cancelled = isCancellation(err);
    const failure = cancelled ? CANCELLED : describeFailure(err);
    await CancellationScope.nonCancellable(() => recordPageFailure(task, failure));
    if (cancelled) throw err;
    throw ApplicationFailure.create({ type: failure.code, message: failure.message, nonRetryable: true });
  }
}
