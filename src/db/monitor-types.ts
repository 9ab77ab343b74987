/**
 * The shapes the monitor tables store (src/db/schema/monitors.ts). They live here, beside the
 * tables, so the schema needs nothing above it; src/monitors/ builds and reads them.
 */

/** Page statuses of a check. */
export const PAGE_STATUSES = ['same', 'new', 'changed', 'removed', 'error'] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];

/** Check statuses, as Firecrawl names them. */
export const CHECK_STATUSES = ['queued', 'running', 'completed', 'failed', 'partial', 'skipped_overlap', 'skipped_no_credits'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export type CheckTrigger = 'scheduled' | 'manual';

/** Counts of a check's pages by status. */
export interface CheckSummary {
  totalPages: number;
  same: number;
  changed: number;
  new: number;
  removed: number;
  error: number;
}

export const MONITOR_WEBHOOK_EVENTS = ['monitor.page', 'monitor.check.completed'] as const;
export type MonitorWebhookEvent = (typeof MONITOR_WEBHOOK_EVENTS)[number];

/** Where a monitor's webhook events go. */
export interface MonitorWebhook {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, string>;
  events: MonitorWebhookEvent[];
}

/** Who is mailed about a check's changes (needs SMTP_URL). */
export interface MonitorEmail {
  enabled: boolean;
  recipients: string[];
  includeDiffs: boolean;
}

export interface MonitorNotification {
  email?: MonitorEmail;
}

/**
 * How a changed page differs (Firecrawl's MonitorPageDiff): for markdown, the git-style `text`
 * and its parsed `json` ({files}, parse-diff's shape); for a JSON-extraction target, `json` per
 * field, with `text` beside it when markdown was asked for too.
 */
export interface PageDiff {
  text?: string;
  json?: Record<string, { previous: unknown; current: unknown }> | { files: unknown[] };
}

/** An LLM's verdict on a change, given the monitor's goal (Firecrawl's MonitorPageJudgment). */
export interface PageJudgment {
  meaningful: boolean;
  confidence: 'high' | 'medium' | 'low';
  reason: string;
  meaningfulChanges: { type: 'added' | 'removed' | 'changed'; before: string | null; after: string | null; reason: string }[];
}

/** A target's plan as stored: its id and type; src/monitors/monitor-plan.ts has the whole shape. */
export interface StoredTargetPlan {
  id: string;
  type: 'scrape' | 'crawl' | 'search';
}
