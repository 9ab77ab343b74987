import { getTableColumns } from 'drizzle-orm';
import { pages } from './schema';

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
