import { and, asc, eq, gt, ne, or, sql, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { monitorCheckPages, monitorChecks, monitors, teams } from '../db/schema';
import { signWebhook } from '../crawl/webhooks/sign-webhook';
import type { GuardedFetcher } from '../net/guarded-fetcher';
import type { MonitorWebhookEvent } from './monitor-plan';
import { checkPageFields } from './monitor-store';
import { stableUuid } from './stable-uuid';

/** How long one delivery attempt may take, as for crawl webhooks. */
const ATTEMPT_TIMEOUT_MS = 10_000;

/** A page the check tells about: not `same`, and, when the LLM judged it, judged meaningful. */
const notifiable = and(ne(monitorCheckPages.status, 'same'), or(isNull(monitorCheckPages.judgment), sql`(${monitorCheckPages.judgment}->>'meaningful')::boolean`));

/** The next `limit` pages of a check to tell about, after `after` (a page id; '' for the first). */
export async function notifiablePages(db: Db, checkId: string, after: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: monitorCheckPages.id })
    .from(monitorCheckPages)
    .where(and(eq(monitorCheckPages.checkId, checkId), notifiable, after ? gt(monitorCheckPages.id, after) : undefined))
    .orderBy(asc(monitorCheckPages.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** A check's pages to tell about, with what an email shows of them. */
export async function notifiablePageDetails(db: Db, checkId: string) {
  return db
    .select({ url: monitorCheckPages.url, status: monitorCheckPages.status, diff: monitorCheckPages.diff, error: monitorCheckPages.error, judgment: monitorCheckPages.judgment })
    .from(monitorCheckPages)
    .where(and(eq(monitorCheckPages.checkId, checkId), notifiable))
    .orderBy(asc(monitorCheckPages.targetId), asc(monitorCheckPages.urlKey));
}

/** One event of a check: a page (by its row id) or the check's completion. */
export interface MonitorEventRef {
  checkId: string;
  type: MonitorWebhookEvent;
  pageRowId?: string;
}

/** The page event's `data` entry: Firecrawl's monitor.page shape. */
async function pageData(db: Db, ref: MonitorEventRef, monitorId: string) {
  const [p] = await db.select().from(monitorCheckPages).where(eq(monitorCheckPages.id, ref.pageRowId ?? ''));
  if (!p) return undefined;
  return {
    success: p.status !== 'error',
    entry: {
      checkId: ref.checkId,
      monitorId,
      ...checkPageFields(p),
      isMeaningful: p.judgment ? p.judgment.meaningful : null,
    },
  };
}

/**
 * Delivers one event of a check to the monitor's webhook, signed as crawl webhooks are
 * (`X-Webhook-Signature: sha256=<HMAC of the body with the team's secret>`). Throws when the
 * receiver does not answer 2xx in time, so the activity's retries (Temporal's, with backoff)
 * try again; answers false when there is nothing to send (no webhook, event not wanted, gone).
 * `webhookId` is the same on every attempt, so a receiver can drop a repeat.
 */
export async function deliverMonitorEvent(db: Db, fetcher: GuardedFetcher, ref: MonitorEventRef): Promise<boolean> {
  const [row] = await db
    .select({ webhook: monitors.webhook, monitorId: monitors.id, secret: teams.webhookSecret, status: monitorChecks.status, summary: monitorChecks.summary, error: monitorChecks.error })
    .from(monitorChecks)
    .innerJoin(monitors, eq(monitors.id, monitorChecks.monitorId))
    .innerJoin(teams, eq(teams.id, monitors.teamId))
    .where(eq(monitorChecks.id, ref.checkId));
  if (!row?.webhook || !row.webhook.events.includes(ref.type)) return false;
  let payload: Record<string, unknown>;
  if (ref.type === 'monitor.page') {
    const page = await pageData(db, ref, row.monitorId);
    if (!page) return false;
    payload = { success: page.success, type: ref.type, id: ref.checkId, webhookId: ref.pageRowId, data: [page.entry], metadata: row.webhook.metadata };
  } else {
    payload = {
      success: row.status === 'completed',
      type: ref.type,
      id: ref.checkId,
      webhookId: stableUuid(`monitor.check.completed:${ref.checkId}`),
      data: [{ checkId: ref.checkId, monitorId: row.monitorId, status: row.status, summary: row.summary }],
      ...(row.error && { error: row.error }),
      metadata: row.webhook.metadata,
    };
  }
  const body = JSON.stringify(payload);
  const status = await fetcher.post(
    row.webhook.url,
    body,
    { ...row.webhook.headers, 'content-type': 'application/json', 'x-webhook-signature': signWebhook(row.secret, body) },
    Date.now() + ATTEMPT_TIMEOUT_MS,
  );
  if (status < 200 || status >= 300) throw new Error(`The webhook receiver ${row.webhook.url} answered ${status}`);
  return true;
}

/** Merges what was notified into the check's notificationStatus. */
export async function recordNotification(db: Db, checkId: string, status: Record<string, unknown>): Promise<void> {
  await db
    .update(monitorChecks)
    .set({ notificationStatus: sql`coalesce(${monitorChecks.notificationStatus}, '{}'::jsonb) || ${JSON.stringify(status)}::jsonb`, updatedAt: new Date() })
    .where(eq(monitorChecks.id, checkId));
}
