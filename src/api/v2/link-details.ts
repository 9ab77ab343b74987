import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pages } from '../../db/schema';
import { urlKey } from '../../url/normalize-url';

/** URLs looked up per query: one parameter each, far under Postgres's 65,535. */
const LOOKUP_BATCH = 5_000;

/**
 * Title and description of each URL this deployment has a stored public copy of (the pages the
 * local search index holds, newest copy per URL), keyed by the URL as given. URLs never scraped
 * are absent: map does not fetch pages to name them.
 */
export async function linkDetails(db: Db, urls: readonly string[]): Promise<Map<string, { title?: string; description?: string }>> {
  const keyOf = new Map(urls.map((u) => [u, urlKey(u)]));
  const found = new Map<string, { title: string | null; description: string | null }>();
  const keys = [...new Set(keyOf.values())];
  for (let i = 0; i < keys.length; i += LOOKUP_BATCH) {
    const batch = keys.slice(i, i + LOOKUP_BATCH);
    const rows = await db
      .selectDistinctOn([pages.urlKey], { urlKey: pages.urlKey, title: pages.title, description: pages.description })
      .from(pages)
      .where(and(eq(pages.searchable, true), inArray(pages.urlKey, batch)))
      .orderBy(pages.urlKey, desc(pages.scrapedAt));
    for (const r of rows) found.set(r.urlKey, { title: r.title, description: r.description });
  }
  const out = new Map<string, { title?: string; description?: string }>();
  for (const [url, key] of keyOf) {
    const row = found.get(key);
    if (row) out.set(url, { ...(row.title && { title: row.title }), ...(row.description && { description: row.description }) });
  }
  return out;
}
