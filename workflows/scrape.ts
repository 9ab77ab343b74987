import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { ScrapeActivities } from '../activities/scrape-page';
import type { PageTask } from '../src/jobs/page-task';
import { describeFailure, pageActivities, scrapePage, type StoredOutcome } from './page-activities';

export interface ScrapeWorkflowInput {
  task: Omit<PageTask, 'deadline'>;
  browserQueue: string;
}

const { recordPageFailure } = proxyActivities<ScrapeActivities>({ startToCloseTimeout: '30s', retry: { maximumAttempts: 5 } });

/** POST /v1/scrape: one page, stored with its charge; the API reads the result from Postgres. */
export async function scrapeWorkflow({ task: input, browserQueue }: ScrapeWorkflowInput): Promise<StoredOutcome> {
  const task: PageTask = { ...input, deadline: Date.now() + input.options.timeout };
  try {
    return await scrapePage(task, pageActivities(input.options.timeout, browserQueue));
  } catch (err) {
    const failure = describeFailure(err);
    await recordPageFailure(task, failure);
    throw ApplicationFailure.create({ type: failure.code, message: failure.message, nonRetryable: true });
  }
}
