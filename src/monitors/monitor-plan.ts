import type { DiffFile } from '../scrape/change-tracking/line-diff';
import type { CrawlOptions } from '../crawl/crawl-options';
import type { SearchOptions } from '../search/search-options';

/**
 * How one target of a monitor is checked, in the internal options the existing workflows take
 * (the API turns the v2 request into these once, when the monitor is created or updated).
 */
export type TargetPlan = ScrapeTargetPlan | CrawlTargetPlan | SearchTargetPlan;

/** What a page comparison reports: the markdown's git-style diff, the json extraction's fields, or both. */
export interface DiffModes {
  /** A unified diff of the markdown. */
  text: boolean;
  /** Per-field {previous, current} of the json extraction (the target asked for JSON). */
  json: boolean;
}

export interface ScrapeTargetPlan {
  id: string;
  type: 'scrape';
  urls: string[];
  /** Its URLs run as one batch scrape (a crawl that follows no links); maxAge 0: a check always fetches. */
  options: CrawlOptions;
  diff: DiffModes;
}

export interface CrawlTargetPlan {
  id: string;
  type: 'crawl';
  url: string;
  /** The crawl's options; its limit is clamped to the team's credits at each check. */
  options: CrawlOptions;
  diff: DiffModes;
}

export interface SearchTargetPlan {
  id: string;
  type: 'search';
  queries: string[];
  /** Options of each query's search (its `query` is set per query). */
  options: Omit<SearchOptions, 'query'>;
  /** Keep only results on these hosts (and their subdomains). */
  includeDomains: string[];
  /** Drop results on these hosts (and their subdomains). */
  excludeDomains: string[];
}

/** Where a monitor's webhook events go. */
export interface MonitorWebhook {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, string>;
  events: MonitorWebhookEvent[];
}

export const MONITOR_WEBHOOK_EVENTS = ['monitor.page', 'monitor.check.completed'] as const;
export type MonitorWebhookEvent = (typeof MONITOR_WEBHOOK_EVENTS)[number];

/** Who is mailed about a check's changes (needs SMTP_URL). */
export interface MonitorEmail {
  enabled: boolean;
  recipients: string[];
  includeDiffs: boolean;
}

export interface MonitorNotification {
  email?: MonitorEmail;
}

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

/**
 * How a changed page differs (Firecrawl's MonitorPageDiff): for markdown, the git-style `text`
 * and its parsed `json` ({files}); for a JSON-extraction target, `json` per field, with `text`
 * beside it when markdown was asked for too.
 */
export interface PageDiff {
  text?: string;
  json?: Record<string, { previous: unknown; current: unknown }> | { files: DiffFile[] };
}

/** An LLM's verdict on a change, given the monitor's goal (Firecrawl's MonitorPageJudgment). */
export interface PageJudgment {
  meaningful: boolean;
  confidence: 'high' | 'medium' | 'low';
  reason: string;
  meaningfulChanges: { type: 'added' | 'removed' | 'changed'; before: string | null; after: string | null; reason: string }[];
}
