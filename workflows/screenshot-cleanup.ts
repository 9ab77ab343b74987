import { proxyActivities } from '@temporalio/workflow';
import type { ScreenshotActivities } from '../activities/screenshot';

const { deleteExpiredScreenshots } = proxyActivities<ScreenshotActivities>({
  startToCloseTimeout: '30m',
  heartbeatTimeout: '1m',
  retry: { maximumAttempts: 3 },
});

/** Run by the cleanup Schedule: deletes expired screenshot images and rows. */
export async function screenshotCleanupWorkflow(): Promise<number> {
  return deleteExpiredScreenshots();
}
