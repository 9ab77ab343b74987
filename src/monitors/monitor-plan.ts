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

export {
  CHECK_STATUSES,
  MONITOR_WEBHOOK_EVENTS,
  PAGE_STATUSES,
  type CheckStatus,
  type CheckSummary,
  type CheckTrigger,
  type MonitorEmail,
  type MonitorNotification,
  type MonitorWebhook,
  type MonitorWebhookEvent,
  type PageDiff,
  type PageJudgment,
  type PageStatus,
} from '../db/monitor-types';

/** A monitor row's plans, as the API wrote them (the table stores them as JSON). */
export function plansOf(row: { plans: unknown }): TargetPlan[] {
  return row.plans as TargetPlan[];
}
