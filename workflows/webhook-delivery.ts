import { continueAsNew, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { CrawlActivities } from '../activities/crawl';

const { deliverWebhooks } = proxyActivities<CrawlActivities>({
  startToCloseTimeout: '2m',
  heartbeatTimeout: '30s',
  retry: { initialInterval: '1s', maximumInterval: '30s' },
});

/** How often to look for new events while the crawl runs. */
const POLL_MS = 1_000;

/**
 * `webhooks-<jobId>`: delivers a crawl's webhook events from the outbox, in order, until the
 * crawl has ended and nothing is left. It runs beside the crawl (abandoned by it on close), so
 * a slow or failing receiver delays only its own deliveries.
 */
export async function webhookDeliveryWorkflow(input: { jobId: string }): Promise<void> {
  for (;;) {
    const progress = await deliverWebhooks(input);
    if (progress.done) return;
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof webhookDeliveryWorkflow>(input);
    await sleep(progress.waitMs && progress.waitMs > 0 ? Math.min(progress.waitMs, 60_000) : POLL_MS);
  }
}
