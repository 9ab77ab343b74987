import type { ActionResults, PageMetadata } from '../../db/page-metadata';
import type { PageRow } from '../../db/page-row';
import type { Format } from '../../scrape/document';

/** One page as the API returns it; only the formats asked for are present. */
export interface Document {
  markdown?: string;
  text?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  screenshot?: string;
  json?: unknown;
  actions?: ActionResults;
  warning?: string;
  metadata: PageMetadata;
}

/** The API's view of a stored page: only the formats asked for, metadata always. */
export function pageToDocument(row: PageRow, formats: readonly Format[]): Document {
  const want = new Set<string>(formats);
  const stored = row.metadata ?? { sourceURL: row.url, url: row.url, statusCode: row.statusCode ?? 0, renderer: 'http' as const, timing: {} };
  const doc: Document = {
    metadata: {
      ...stored,
      scrapeId: row.id,
      creditsUsed: row.credits,
      ...(row.status === 'failed' && { error: row.error ?? 'failed' }),
    },
  };
  if (want.has('markdown')) doc.markdown = row.markdown ?? '';
  if (want.has('text')) doc.text = row.text ?? '';
  if (want.has('html')) doc.html = row.html ?? '';
  if (want.has('rawHtml')) doc.rawHtml = row.rawHtml ?? '';
  if (want.has('links')) doc.links = row.links ?? [];
  if ((want.has('screenshot') || want.has('screenshot@fullPage')) && row.screenshot) doc.screenshot = row.screenshot;
  if (want.has('json') && row.json !== null) doc.json = row.json;
  if (row.actions) doc.actions = row.actions;
  if (row.warning) doc.warning = row.warning;
  return doc;
}
