import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { ScreenshotActivities } from '../activities/screenshot';
import type { ScreenshotTask } from '../src/screenshots/screenshot-task';
import { describeFailure, PAGE_RETRY } from './page-activities';

export interface ScreenshotWorkflowInput {
  task: Omit<ScreenshotTask, 'deadline'>;
  /** The browser task queue, where the capture runs. */
  browserQueue: string;
}

const { recordScreenshotFailure } = proxyActivities<ScreenshotActivities>({ startToCloseTimeout: '30s', retry: { maximumAttempts: 5 } });

/**
 * POST /v1/screenshot, on the scrape task queue like the other single-page workflows: one
 * capture activity on the browser queue that heartbeats, so a crashed browser or worker is
 * retried on a fresh one; the API reads the result from Postgres. (Browser workers then run
 * activities only, and spare the memory of a workflow thread.)
 */
export async function screenshotWorkflow({ task, browserQueue }: ScreenshotWorkflowInput): Promise<{ screenshotId: string }> {
  const { timeout } = task.options;
  const { captureScreenshot } = proxyActivities<ScreenshotActivities>({
    taskQueue: browserQueue,
    startToCloseTimeout: timeout + 10_000,
    scheduleToCloseTimeout: timeout * 2 + 20_000,
    heartbeatTimeout: '10s',
    retry: PAGE_RETRY,
  });
  try {
    return await captureScreenshot({ ...task, deadline: Date.now() + timeout });
  } catch (err) {
    const failure = describeFailure(err);
    await recordScreenshotFailure(task.jobId, failure);
    throw ApplicationFailure.create({ type: failure.code, message: failure.message, nonRetryable: true });
  }
}
