import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';

export interface ActivityRun {
  type: string;
  /** The task queue for scheduled activities; `local` for local activities (run by the workflow's own worker). */
  queue: string;
}

/**
 * A workflow's history once it has closed. A scrape is answered as soon as its page is stored,
 * before the workflow task that ran it completes, and a retried task's events reach the history
 * only when it completes.
 */
export async function closedHistory(client: Client, workflowId: string, runId?: string) {
  const handle = client.workflow.getHandle(workflowId, runId);
  await handle.result();
  return handle.fetchHistory();
}

/**
 * The activities a workflow ran, from its closed history: scheduled ones with their task queue,
 * and local ones (recorded as markers) as `local`.
 */
export async function activitiesOf(client: Client, workflowId: string, runId?: string): Promise<ActivityRun[]> {
  const history = await closedHistory(client, workflowId, runId);
  return (history.events ?? []).flatMap((e): ActivityRun[] => {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) return [{ type: scheduled.activityType?.name ?? '', queue: scheduled.taskQueue?.name ?? '' }];
    const marker = e.markerRecordedEventAttributes;
    if (marker?.markerName === 'core_local_activity') {
      const data = defaultPayloadConverter.fromPayload<{ activity_type?: string }>(marker.details!.data!.payloads![0]!);
      return [{ type: data.activity_type ?? '', queue: 'local' }];
    }
    return [];
  });
}
