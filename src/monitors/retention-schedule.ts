import type { Client } from '@temporalio/client';
import { monitorRetentionWorkflow } from '../../workflows';
import type { Config } from '../config/env';
import { ensureSchedule } from '../temporal/ensure-schedule';

/** The retention Schedule's id (per deployment, as the queue prefix). */
export function retentionScheduleId(config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>): string {
  return `${config.TEMPORAL_TASK_QUEUE_PREFIX}-monitor-retention`;
}

/**
 * Creates (or brings in line) the hourly Schedule that removes each monitor's checks and
 * snapshots older than its `retentionDays`. Safe to call from every worker at every start.
 */
export async function ensureRetentionSchedule(client: Client, config: Config): Promise<void> {
  const scheduleId = retentionScheduleId(config);
  await ensureSchedule(client, scheduleId, { intervals: [{ every: '1h' }] }, {
    type: 'startWorkflow',
    workflowType: monitorRetentionWorkflow,
    workflowId: scheduleId,
    taskQueue: config.taskQueues.http,
  });
}
