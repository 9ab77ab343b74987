import { and, asc, eq, isNull, lte, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { webhookEvents, type WebhookEventType } from '../../db/schema';
import type { WebhookTarget } from '../crawl-options';

const EVENT_NAME: Record<WebhookEventType, WebhookTarget['events'][number]> = {
  'crawl.started': 'started',
  'crawl.page': 'page',
  'crawl.completed': 'completed',
  'crawl.failed': 'failed',
};

export interface WebhookEventSpec {
  jobId: string;
  /** Unique per event of a job: a retried step queues it once. */
  eventKey: string;
  type: WebhookEventType;
  pageId?: string;
  error?: string;
}

function wanted(webhook: WebhookTarget | undefined, type: WebhookEventType): webhook is WebhookTarget {
  return !!webhook && webhook.events.includes(EVENT_NAME[type]);
}

/**
 * Queues a webhook event in the caller's transaction, once per `eventKey`, when the crawl has a
 * webhook that wants this type of event.
 */
export async function queueWebhookEvent(tx: Db | Tx, webhook: WebhookTarget | undefined, event: WebhookEventSpec): Promise<void> {
  if (wanted(webhook, event.type)) await tx.insert(webhookEvents).values(event).onConflictDoNothing();
}

/** The statement of `queueWebhookEvent`, for a transaction that sends it itself; null when no event is wanted. */
export function webhookEventStatement(db: Db | Tx, webhook: WebhookTarget | undefined, event: WebhookEventSpec): SQLWrapper | null {
  return wanted(webhook, event.type) ? db.insert(webhookEvents).values(event).onConflictDoNothing() : null;
}

export type WebhookEventRow = typeof webhookEvents.$inferSelect;

/** The oldest undelivered event of a crawl, if its next attempt is due. Events go out in order. */
export async function nextWebhookEvent(db: Db, jobId: string): Promise<{ due: WebhookEventRow | null; waitMs: number | null }> {
  const [first] = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.jobId, jobId), isNull(webhookEvents.deliveredAt), isNull(webhookEvents.abandonedAt)))
    .orderBy(asc(webhookEvents.id))
    .limit(1);
  if (!first) return { due: null, waitMs: null };
  const wait = first.nextAttemptAt.getTime() - Date.now();
  return wait > 0 ? { due: null, waitMs: wait } : { due: first, waitMs: 0 };
}

export async function markDelivered(db: Db, id: number): Promise<void> {
  await db.update(webhookEvents).set({ deliveredAt: new Date(), attempts: sql`${webhookEvents.attempts} + 1`, lastError: null }).where(eq(webhookEvents.id, id));
}

/** Backs off 1 s, 2 s, 4 s ... up to 5 min; gives the event up after `maxAttempts`. */
export async function markFailedAttempt(db: Db, event: WebhookEventRow, error: string, maxAttempts: number): Promise<void> {
  const attempts = event.attempts + 1;
  const giveUp = attempts >= maxAttempts;
  await db
    .update(webhookEvents)
    .set({
      attempts,
      lastError: error.slice(0, 500),
      nextAttemptAt: new Date(Date.now() + Math.min(300_000, 1000 * 2 ** (attempts - 1))),
      ...(giveUp && { abandonedAt: new Date() }),
    })
    .where(and(eq(webhookEvents.id, event.id), lte(webhookEvents.attempts, event.attempts)));
}
