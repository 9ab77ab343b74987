import { Context } from '@temporalio/activity';
import type { BrowserScraper } from '../src/browser/browser-scraper';
import { charge } from '../src/credits/ledger';
import { PRICES } from '../src/credits/pricing';
import type { Db } from '../src/db/client';
import { completeJob, failJob } from '../src/jobs/job-store';
import type { PageTaskFailure } from '../src/jobs/page-task';
import type { ScreenshotStore } from '../src/screenshots/screenshot-store';
import type { ScreenshotTask } from '../src/screenshots/screenshot-task';
import { withAppFailures } from './app-failure';
import { withHeartbeat } from './heartbeat';

export interface ScreenshotActivityDeps {
  db: Db;
  screenshots: ScreenshotStore;
  /** Created on first use, so an HTTP-only worker never starts Chromium. */
  browser: () => BrowserScraper;
}

/** POST /v1/screenshot's activities and the cleanup the Schedule runs. */
export function createScreenshotActivities(deps: ScreenshotActivityDeps) {
  return {
    /**
     * Captures, stores the image, and records row, charge and job completion in one
     * transaction. Idempotent: a job that already has its screenshot gets it back.
     */
    async captureScreenshot(task: ScreenshotTask): Promise<{ screenshotId: string }> {
      return withAppFailures(() =>
        withHeartbeat(async () => {
          const existing = await deps.screenshots.findByJob(task.jobId);
          if (existing) return { screenshotId: existing.id };
          const startedAt = Date.now();
          const { options } = task;
          const result = await deps.browser().screenshot(
            task.url,
            {
              format: options.format,
              quality: options.quality,
              fullPage: options.fullPage,
              selector: options.selector,
              setup: { ...options, skipTlsVerification: false, loadAllResources: true },
            },
            task.deadline,
            Context.current().cancellationSignal,
          );
          const timing = { queuedMs: startedAt - task.requestedAt, ...result.details.timing, totalMs: Date.now() - task.requestedAt };
          const row = await deps.screenshots.save(result.image, { teamId: task.teamId, jobId: task.jobId }, { ...result.details, timing }, async (tx) => {
            await charge(tx, { teamId: task.teamId, amount: PRICES.screenshotCapture, operation: 'screenshot', jobId: task.jobId, idempotencyKey: `screenshot:${task.jobId}` });
            await completeJob(tx, task.jobId);
          });
          return { screenshotId: row.id };
        }),
      );
    },

    async recordScreenshotFailure(jobId: string, failure: PageTaskFailure): Promise<void> {
      await failJob(deps.db, jobId, failure);
    },

    /** Deletes expired images and their rows; run by the cleanup Schedule. */
    async deleteExpiredScreenshots(): Promise<number> {
      return withHeartbeat(() => deps.screenshots.deleteExpired(() => Context.current().heartbeat()));
    },
  };
}

export type ScreenshotActivities = ReturnType<typeof createScreenshotActivities>;
