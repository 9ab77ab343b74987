import type { Client } from '@temporalio/client';

/**
 * Which worker ran a crawl's page batches, from the Temporal histories of all its runs: the
 * identity (`<pid>@<host>`) that started each `crawlBatch` activity, with how many it started
 * (each batch is a few pages), counting only those started at or after `since` (ms) when given.
 */
export async function crawlBatchesByWorker(client: Client, crawlId: string, since = 0): Promise<Map<string, number>> {
  const byWorker = new Map<string, number>();
  for await (const run of client.workflow.list({ query: `WorkflowId = 'crawl-${crawlId}'` })) {
    const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
    const events = history.events ?? [];
    const typeOf = new Map(events.filter((e) => e.activityTaskScheduledEventAttributes).map((e) => [Number(e.eventId), e.activityTaskScheduledEventAttributes!.activityType?.name]));
    for (const e of events) {
      const started = e.activityTaskStartedEventAttributes;
      if (!started || typeOf.get(Number(started.scheduledEventId)) !== 'crawlBatch') continue;
      const at = Number(e.eventTime?.seconds ?? 0) * 1000 + (e.eventTime?.nanos ?? 0) / 1e6;
      if (at < since) continue;
      byWorker.set(started.identity ?? '', (byWorker.get(started.identity ?? '') ?? 0) + 1);
    }
  }
  return byWorker;
}
