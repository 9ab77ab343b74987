import { getTableColumns } from 'drizzle-orm';
import { pages } from '../db/schema';
import type { Document, Format } from '../scrape/document';

const { searchVector: _onlyForSearch, ...columns } = getTableColumns(pages);
/** Every column of a page but its search vector, which only the search index reads. */
export const pageColumns = columns;

export type PageRow = Omit<typeof pages.$inferSelect, 'searchVector'>;

/** A page's row as a raw statement returns it (column names, driver values), mapped as drizzle maps its own selects. */
export function pageRowFromDriver(raw: Record<string, unknown>): PageRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(pageColumns)) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as PageRow;
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
