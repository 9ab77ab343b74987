import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pages } from '../../db/schema';
import { pageHighlights, type AnswerSource } from '../../firecrawl/v2/page-answers';
import type { RankedResult } from '../run-search';

/**
 * v2 search's `highlights` (firecrawl-js `SearchRequest.highlights`; firecrawl-mcp: "Highlights
 * appear in web `description` and news `snippet`"): each result's passages most relevant to the
 * query, by URL, ranked as the highlights format ranks them, from the result's scraped page or
 * else its local index copy. A result with neither (a remote provider's hit that was not scraped)
 * or without a matching passage is left out and counted in `missing`: it keeps its snippet.
 */
export async function searchHighlights(db: Db, results: readonly RankedResult[], query: string): Promise<{ byUrl: Map<string, string>; missing: number }> {
  const ids = results.filter((r) => !r.page && r.indexedPageId).map((r) => r.indexedPageId!);
  const indexed = ids.length ? await db.select({ id: pages.id, text: pages.text, searchLanguage: pages.searchLanguage }).from(pages).where(inArray(pages.id, ids)) : [];
  const byId = new Map<string, AnswerSource>(indexed.map((p) => [p.id, p]));
  const byUrl = new Map<string, string>();
  let missing = 0;
  for (const r of results) {
    const source = r.page ?? (r.indexedPageId ? byId.get(r.indexedPageId) : undefined);
    const { highlights } = source ? await pageHighlights(db, source, { query }) : {};
    if (highlights === undefined) missing++;
    else byUrl.set(r.url, highlights);
  }
  return { byUrl, missing };
}
