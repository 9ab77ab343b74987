import { continueAsNew, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { MonitorActivities } from '../activities/monitor';
import type { MonitorEventRef } from '../src/monitors/monitor-events';

export interface MonitorNotifyInput {
  checkId: string;
  /** Carried across continue-as-new: the last page told about, and the tallies so far. */
  after?: string;
  delivered?: number;
  failed?: number;
}

/** Pages of events read at a time. */
const PAGE = 100;

const { monitorEventPages, sendMonitorEmail, recordMonitorNotification } = proxyActivities<MonitorActivities>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 5 },
});
/** As crawl webhooks: 1 s, 2 s, 4 s ... up to 5 minutes apart, given up after the 8th attempt. */
const { deliverMonitorWebhook } = proxyActivities<MonitorActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5m', maximumAttempts: 8 },
});

const message = (err: unknown) => (err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err));

/**
 * `monitor-notify-<checkId>`: tells the monitor's webhook about each page of the check worth
 * telling (`monitor.page`, in order), then the check's end (`monitor.check.completed`), and mails
 * the recipients. Each delivery is one activity whose retries back off; one given up is counted
 * and the rest still go. Abandoned by its check, so a slow receiver delays only itself.
 */
export async function monitorNotifyWorkflow(input: MonitorNotifyInput): Promise<void> {
  const { checkId } = input;
  let after = input.after ?? '';
  let delivered = input.delivered ?? 0;
  let failed = input.failed ?? 0;
  const deliver = async (ref: MonitorEventRef) => {
    try {
      if (await deliverMonitorWebhook(ref)) delivered++;
    } catch {
      failed++;
    }
  };
  for (;;) {
    const ids = await monitorEventPages({ checkId, after, limit: PAGE });
    if (ids.length === 0) break;
    for (const id of ids) await deliver({ checkId, type: 'monitor.page', pageRowId: id });
    after = ids.at(-1)!;
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof monitorNotifyWorkflow>({ checkId, after, delivered, failed });
  }
  await deliver({ checkId, type: 'monitor.check.completed' });
  let email: Record<string, unknown>;
  try {
    email = await sendMonitorEmail({ checkId });
  } catch (err) {
    email = { sent: false, error: message(err) };
  }
  await recordMonitorNotification({ checkId, status: { webhook: { delivered, failed }, email } });
}
