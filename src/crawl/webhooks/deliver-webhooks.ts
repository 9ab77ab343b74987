import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pages } from '../../db/schema';
import { renderV2Document } from '../../firecrawl/v2/render-document';
import { pageColumns, type PageRow } from '../../db/page-row';
import { pageToDocument } from '../../firecrawl/v1/document';
import type { GuardedFetcher } from '../../net/guarded-fetcher';
import { loadCrawlJob } from '../crawl-job';
import type { CrawlOptions } from '../crawl-options';
import { signWebhook } from './sign-webhook';
import { markDelivered, markFailedAttempt, nextWebhookEvent, type WebhookEventRow } from './webhook-events';

const ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_ATTEMPTS = 8;
/** One delivery activity works this long at most, then hands back to its workflow. */
const BUDGET_MS = 30_000;

export interface DeliveryProgress {
  /** Milliseconds until the next event is due, or null when none is pending. */
  waitMs: number | null;
  /** The crawl is over and every event is delivered or given up. */
  done: boolean;
}

/** A page as the API that started the job shows it: a v1 document, or a v2 one for a /v2 job. */
function documentOf(db: Db, row: PageRow, options: CrawlOptions): unknown {
  return options.v2Output ? renderV2Document(db, row, options.v2Output) : pageToDocument(row, options.scrapeOptions.formats);
}

async function payloadOf(db: Db, jobId: string, event: WebhookEventRow, options: CrawlOptions, metadata: Record<string, unknown>) {
  const data = [];
  if (event.type === 'crawl.page' && event.pageId) {
    const [row] = await db.select(pageColumns).from(pages).where(eq(pages.id, event.pageId));
    if (row) data.push(await documentOf(db, row, options));
  }
  return { success: event.type !== 'crawl.failed', type: event.type, id: jobId, data, ...(event.error && { error: event.error }), metadata };
}

/** Delivers a crawl's due webhook events in order, signed, each try bounded in time. */
export async function deliverDueWebhooks(db: Db, fetcher: GuardedFetcher, jobId: string, heartbeat: () => void): Promise<DeliveryProgress> {
  const job = await loadCrawlJob(db, jobId);
  const webhook = job.options.webhook;
  const started = Date.now();
  for (;;) {
    const { due, waitMs } = await nextWebhookEvent(db, jobId);
    if (!due || !webhook) {
      return { waitMs, done: waitMs === null && (await loadCrawlJob(db, jobId)).status !== 'scraping' };
    }
    if (Date.now() - started > BUDGET_MS) return { waitMs: 0, done: false };
    heartbeat();
    const body = JSON.stringify(await payloadOf(db, jobId, due, job.options, webhook.metadata));
    try {
      const status = await fetcher.post(
        webhook.url,
        body,
        { ...webhook.headers, 'content-type': 'application/json', 'x-webhook-signature': signWebhook(job.webhookSecret, body) },
        Date.now() + ATTEMPT_TIMEOUT_MS,
      );
      if (status >= 200 && status < 300) await markDelivered(db, due.id);
      else await markFailedAttempt(db, due, `receiver answered ${status}`, MAX_ATTEMPTS);
    } catch (err) {
      await markFailedAttempt(db, due, (err as Error).message, MAX_ATTEMPTS);
    }
  }
}
