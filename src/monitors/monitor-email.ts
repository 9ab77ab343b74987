import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../config/env';
import type { Db } from '../db/client';
import { monitorChecks, monitors } from '../db/schema';
import { notifiablePageDetails } from './monitor-events';

/** Characters of one page's diff an email includes. */
const MAX_DIFF_CHARS = 4_000;
/** Pages one email lists; the rest are counted. */
const MAX_PAGES = 100;

/** What an email says about a check: a line per changed page, with its diff when asked. */
function composeEmail(name: string, checkId: string, summary: string, rows: Awaited<ReturnType<typeof notifiablePageDetails>>, includeDiffs: boolean): { subject: string; text: string } {
  const lines = rows.slice(0, MAX_PAGES).flatMap((r) => {
    const head = `${r.status.toUpperCase()}  ${r.url}${r.error ? ` (${r.error})` : ''}${r.judgment ? ` — ${r.judgment.reason}` : ''}`;
    const diff = includeDiffs ? (r.diff as { text?: string } | null)?.text : undefined;
    return diff ? [head, diff.length > MAX_DIFF_CHARS ? `${diff.slice(0, MAX_DIFF_CHARS)}\n[diff cut at ${MAX_DIFF_CHARS} characters]` : diff, ''] : [head];
  });
  if (rows.length > MAX_PAGES) lines.push(`… and ${rows.length - MAX_PAGES} more page(s).`);
  return {
    subject: `${name}: ${rows.length} page${rows.length === 1 ? '' : 's'} changed`,
    text: [`Monitor "${name}", check ${checkId}: ${summary}.`, '', ...lines].join('\n'),
  };
}

/**
 * Mails the monitor's recipients about a check's changes, once: a check with nothing to tell
 * sends nothing, and a check whose mail was recorded as sent is not mailed again. The Message-ID
 * is the check's, so should a retry follow an answer lost after the server took the mail, mail
 * clients see one message. Throws when the SMTP server refuses (the activity retries).
 */
export async function sendMonitorEmail(db: Db, smtp: SmtpConfig, checkId: string): Promise<{ sent: boolean; recipients: number; pages: number }> {
  const [row] = await db
    .select({ name: monitors.name, notification: monitors.notification, summary: monitorChecks.summary, status: monitorChecks.notificationStatus })
    .from(monitorChecks)
    .innerJoin(monitors, eq(monitors.id, monitorChecks.monitorId))
    .where(eq(monitorChecks.id, checkId));
  const email = row?.notification?.email;
  if (!row || !email?.enabled || email.recipients.length === 0) return { sent: false, recipients: 0, pages: 0 };
  const already = (row.status?.email as { sent?: boolean } | undefined)?.sent;
  const pages = await notifiablePageDetails(db, checkId);
  if (already || pages.length === 0) return { sent: Boolean(already), recipients: email.recipients.length, pages: pages.length };
  const s = row.summary;
  const summary = s ? `${s.changed} changed, ${s.new} new, ${s.removed} removed, ${s.error} error, ${s.same} same` : 'no summary';
  const { subject, text } = composeEmail(row.name, checkId, summary, pages, email.includeDiffs);
  const transport = nodemailer.createTransport(smtp.url);
  try {
    await transport.sendMail({ from: smtp.from, to: email.recipients, subject, text, messageId: `<check-${checkId}@monitors.web-context-service>` });
  } finally {
    transport.close();
  }
  return { sent: true, recipients: email.recipients.length, pages: pages.length };
}
