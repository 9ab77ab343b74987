import { proxyActivities } from '@temporalio/workflow';
import type { MonitorActivities } from '../activities/monitor';
import type { RetentionPass } from '../src/monitors/retention';

const { removeExpiredMonitorData } = proxyActivities<MonitorActivities>({
  startToCloseTimeout: '30m',
  heartbeatTimeout: '1m',
  retry: { maximumAttempts: 3 },
});

/** Run by the retention Schedule: removes each monitor's checks and snapshots older than its retentionDays. */
export async function monitorRetentionWorkflow(): Promise<RetentionPass> {
  return removeExpiredMonitorData();
}
