import type { Client } from '@temporalio/client';
import { screenshotCleanupWorkflow } from '../../workflows';
import type { Config } from '../config/env';
import { ensureSchedule } from '../temporal/ensure-schedule';

/** The Schedule's id; the queue prefix keeps deployments sharing one Temporal namespace apart. */
export function cleanupScheduleId(config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>): string {
  return `${config.TEMPORAL_TASK_QUEUE_PREFIX}-screenshot-cleanup`;
}

/**
 * Creates the Temporal Schedule that deletes expired screenshots every
 * SCREENSHOT_CLEANUP_INTERVAL_SECONDS, or brings an existing one in line with the current
 * settings. Safe to call from every worker at every start.
 */
export async function ensureCleanupSchedule(client: Client, config: Config): Promise<void> {
  const scheduleId = cleanupScheduleId(config);
  await ensureSchedule(client, scheduleId, { intervals: [{ every: `${config.SCREENSHOT_CLEANUP_INTERVAL_SECONDS}s` }] }, {
    type: 'startWorkflow',
    workflowType: screenshotCleanupWorkflow,
    workflowId: scheduleId,
    taskQueue: config.taskQueues.http,
  });
}
