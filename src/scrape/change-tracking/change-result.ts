import type { DiffFile } from './line-diff';

/** Whether a page changed since this team's previous copy of it. */
export type ChangeStatus = 'new' | 'same' | 'changed' | 'removed';

/** The v2 `changeTracking` field of a document (Firecrawl's shape). */
export interface ChangeTrackingResult {
  /** When the copy compared with was scraped (ISO 8601); null when there was none. */
  previousScrapeAt: string | null;
  changeStatus: ChangeStatus;
  /** Always `visible`: this service has no pages hidden from discovery. */
  visibility: 'visible';
  /** The git-diff mode's result: the unified diff of the markdown, and the same parsed (parse-diff's shape). */
  diff?: { text: string; json: { files: DiffFile[] } };
  /** The json mode's result: per top-level field, the previous and current value. */
  json?: Record<string, { previous: unknown; current: unknown }>;
}
