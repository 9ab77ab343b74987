import {
  ActivityCancellationType,
  ApplicationFailure,
  CancellationScope,
  condition,
  ContinueAsNew,
  continueAsNew,
  defineSignal,
  isCancellation,
  ParentClosePolicy,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { ActivityOptions } from '@temporalio/common';
import type { BatchOutcome, ClaimedBatch, CrawlActivities } from '../activities/crawl';
import type { CrawlCounts } from '../src/crawl/crawl-counts';
import type { CrawlState, CrawlWorkflowInput } from '../src/crawl/crawl-run';
import { browserRequiredBy } from '../src/scrape/engine-choice';
import { SEARCH_ATTRIBUTES } from '../src/temporal/search-attributes';
import { webhookDeliveryWorkflow } from './webhook-delivery';

/** Sent by the retry endpoint after it put failed pages back in the frontier. */
export const frontierChanged = defineSignal('frontierChanged');

/**
 * Batches heartbeat every 2 s, so a dead worker's batch is retried elsewhere within 10 s. A
 * cancelled crawl waits for its batches to acknowledge, so nothing is stored after it ends.
 */
const BATCH_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30m',
  heartbeatTimeout: '10s',
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 10 },
};
const { seedCrawl, crawlBatch, abandonBatch, finishCrawl } = proxyActivities<CrawlActivities>(BATCH_OPTIONS);
const { claimCrawlBatches } = proxyLocalActivities<CrawlActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '500ms', maximumAttempts: 10 },
});

/**
 * `crawl-<jobId>`: a durable crawl. Postgres holds the frontier, the visited set, pages and
 * edges; this workflow only decides what runs next. It keeps at most `maxConcurrency` batch
 * activities in flight (each a few pages of one host, heartbeating per page), sends pages only
 * a browser can render to the browser queue, and continues as new when Temporal suggests it,
 * carrying counters and a cursor. Cancelling it stops the batches and keeps finished pages.
 */
export async function crawlWorkflow(input: CrawlWorkflowInput): Promise<CrawlCounts['completed']> {
  const state: CrawlState = input.state ?? { seeded: false, batchSeq: 0, counts: { completed: 0, failed: 0 } };
  const browserOptions = { ...BATCH_OPTIONS, taskQueue: input.browserQueue };
  const { crawlBatchBrowser } = proxyActivities<CrawlActivities>(browserOptions);
  const browserFirst = browserRequiredBy(input.engine) !== null;
  let woken = false;
  setHandler(frontierChanged, () => {
    woken = true;
  });
  const publish = (status: string) =>
    upsertSearchAttributes([
      { key: SEARCH_ATTRIBUTES.crawlStatus, value: status },
      { key: SEARCH_ATTRIBUTES.teamId, value: input.teamId },
      { key: SEARCH_ATTRIBUTES.crawlHost, value: input.host },
      { key: SEARCH_ATTRIBUTES.pagesDone, value: state.counts.completed },
      { key: SEARCH_ATTRIBUTES.pagesFailed, value: state.counts.failed },
    ]);

  const runBatch = async ({ claimId, firstUrl, size }: ClaimedBatch): Promise<void> => {
    const args = { jobId: input.jobId, claimId };
    // The summary names the batch's pages in the Temporal UI.
    const summary = size > 1 ? `${firstUrl} and ${size - 1} more` : firstUrl;
    const inBrowser = () => crawlBatchBrowser.executeWithOptions({ ...browserOptions, summary }, [args]);
    let outcome: BatchOutcome;
    try {
      outcome = browserFirst ? await inBrowser() : await crawlBatch.executeWithOptions({ ...BATCH_OPTIONS, summary }, [args]);
      if (outcome.needsBrowser > 0) outcome = await inBrowser();
    } catch (err) {
      if (isCancellation(err)) throw err;
      await abandonBatch({ ...args, reason: err instanceof Error ? err.message : String(err) });
      return;
    }
    const { completed, failed } = outcome.counts;
    if (completed !== state.counts.completed || failed !== state.counts.failed) {
      state.counts = { completed, failed };
      publish('scraping');
    }
  };

  const inFlight = new Map<string, Promise<void>>();
  try {
    publish('scraping');
    if (input.hasWebhook && !state.delivering) {
      await startDelivery(input.jobId);
      state.delivering = true;
    }
    if (!state.seeded) {
      await seedCrawl({ jobId: input.jobId });
      state.seeded = true;
    }
    for (;;) {
      const winding = workflowInfo().continueAsNewSuggested;
      const free = input.maxConcurrency - inFlight.size;
      let claim: Awaited<ReturnType<typeof claimCrawlBatches>> | undefined;
      if (!winding && free > 0) {
        const claimIds = Array.from({ length: free }, (_, i) => `${workflowInfo().firstExecutionRunId}:${state.batchSeq + i}`);
        state.batchSeq += free;
        claim = await claimCrawlBatches({ jobId: input.jobId, claimIds });
        for (const batch of claim.claimed) {
          inFlight.set(
            batch.claimId,
            runBatch(batch).finally(() => inFlight.delete(batch.claimId)),
          );
        }
      }
      if (inFlight.size > 0) {
        await Promise.race(inFlight.values());
        continue;
      }
      if (winding) await continueAsNew<typeof crawlWorkflow>({ ...input, state });
      if (claim?.exhausted) {
        if ((await finishCrawl({ jobId: input.jobId, end: 'completed' })) && !woken) break;
        woken = false;
        continue;
      }
      // Nothing ready: deferred pages (Retry-After, backoff) or a retry's signal will wake us.
      const waitMs = claim?.nextReadyAt ? Math.max(100, claim.nextReadyAt - Date.now()) : 1_000;
      await condition(() => woken, waitMs);
      woken = false;
    }
    publish('completed');
    return state.counts.completed;
  } catch (err) {
    if (err instanceof ContinueAsNew) throw err;
    const end = isCancellation(err) ? 'cancelled' : 'failed';
    await CancellationScope.nonCancellable(async () => {
      await Promise.allSettled(inFlight.values());
      await finishCrawl({ jobId: input.jobId, end, ...(end === 'failed' && { error: err instanceof Error ? err.message : String(err) }) });
      publish(end);
    });
    if (end === 'failed' && !(err instanceof ApplicationFailure)) throw ApplicationFailure.nonRetryable(String(err), 'CRAWL_FAILED');
    throw err;
  }
}

/** The webhook deliverer runs beside the crawl and outlives it, so a slow receiver never holds it up. */
async function startDelivery(jobId: string): Promise<void> {
  try {
    await startChild(webhookDeliveryWorkflow, {
      workflowId: `webhooks-${jobId}`,
      args: [{ jobId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
