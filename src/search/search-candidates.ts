import { asc, eq } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { searchResults } from '../db/schema';
import { urlKey } from '../url/normalize-url';
import type { ProviderHit } from './providers/search-provider';

export type CandidateRow = typeof searchResults.$inferSelect;

/** Candidates asked of the provider: twice the limit, at least ten more, at most 200. */
export function candidatesWanted(limit: number): number {
  return Math.min(200, Math.max(limit * 2, limit + 10));
}

/**
 * Candidates scraped when formats are asked for: the limit plus as many again (up to ten more),
 * so that pages which fail, time out or duplicate another leave room, and a lower-ranked page
 * with better content can move up.
 */
export function scrapePoolSize(limit: number): number {
  return limit + Math.min(limit, 10);
}

/** Hits with a usable http(s) URL, each canonical URL once, in the provider's order. */
export function distinctHits(hits: readonly ProviderHit[], admits: (url: URL) => boolean): (ProviderHit & { urlKey: string })[] {
  const seen = new Set<string>();
  const kept: (ProviderHit & { urlKey: string })[] = [];
  for (const hit of hits) {
    let url: URL;
    try {
      url = new URL(hit.url);
    } catch {
      continue;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !admits(url)) continue;
    const key = urlKey(url.href);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push({ ...hit, urlKey: key });
  }
  return kept;
}

/** Stores a job's candidates; a retried activity finds them already there and adds nothing. */
export async function saveCandidates(db: Queryable, jobId: string, provider: string, hits: readonly (ProviderHit & { urlKey: string })[]): Promise<void> {
  if (hits.length === 0) return;
  await db
    .insert(searchResults)
    .values(
      hits.map((h, i) => ({
        jobId,
        providerRank: i + 1,
        provider,
        url: h.url,
        urlKey: h.urlKey,
        title: h.title,
        description: h.description,
        indexedPageId: h.indexedPageId ?? null,
      })),
    )
    .onConflictDoNothing();
}

export function loadCandidates(db: Queryable, jobId: string): Promise<CandidateRow[]> {
  return db.select().from(searchResults).where(eq(searchResults.jobId, jobId)).orderBy(asc(searchResults.providerRank));
}
