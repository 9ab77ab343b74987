import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Custom search attributes, upserted as a crawl runs, so the Temporal UI can filter runs by
 * `CrawlStatus = "scraping"` or `PagesFailed > 0`, and schedules and checks by `MonitorId`.
 */
export const SEARCH_ATTRIBUTES = {
  crawlStatus: defineSearchAttributeKey('CrawlStatus', SearchAttributeType.KEYWORD),
  teamId: defineSearchAttributeKey('TeamId', SearchAttributeType.KEYWORD),
  crawlHost: defineSearchAttributeKey('CrawlHost', SearchAttributeType.KEYWORD),
  pagesDone: defineSearchAttributeKey('PagesDone', SearchAttributeType.INT),
  pagesFailed: defineSearchAttributeKey('PagesFailed', SearchAttributeType.INT),
  /** A monitor's Schedule and the checks it starts. */
  monitorId: defineSearchAttributeKey('MonitorId', SearchAttributeType.KEYWORD),
} as const;

/** `Name=Type` pairs in the form the Temporal CLI's `--search-attribute` flag takes. */
export function searchAttributeFlags(): string[] {
  const cliType: Record<string, string> = { KEYWORD: 'Keyword', INT: 'Int' };
  return Object.values(SEARCH_ATTRIBUTES).map((key) => `${key.name}=${cliType[key.type]}`);
}
