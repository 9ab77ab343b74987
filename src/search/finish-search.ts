import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { charge } from '../credits/ledger';
import { searchResultCredits } from '../credits/pricing';
import type { Db } from '../db/client';
import { jobs, pages, searchResults } from '../db/schema';
import { completeJob } from '../jobs/job-store';
import { urlKey } from '../url/normalize-url';
import { blendScore } from './ranking/blend';
import { bm25Scores, type TermStats } from './ranking/bm25';
import { nearDuplicateIndexes } from './ranking/near-duplicates';
import { pageTermStats, snippetTermStats } from './ranking/term-stats';
import { loadCandidates, type CandidateRow } from './search-candidates';
import type { SearchOptions } from './search-options';
import { textSearchConfigFor } from '../db/text-search-language';
import { queryLexemes, tsQuerySql } from './ts-query';

export const NO_RESULTS_WARNING = 'No search results found';

/** Text compared for near-duplicates: the start of a page is enough to tell a copy. */
const NEAR_DUPLICATE_CHARS = 20_000;

export interface FinishSearchInput {
  jobId: string;
  teamId: string;
  options: SearchOptions;
  /** The provider that answered, for the job's record. */
  provider: string;
  /** With formats: the URL keys of the candidates whose pages were stored before the deadline. */
  scrapedKeys: string[];
  /** Warnings gathered on the way (provider fallbacks, dropped pages). */
  warnings: string[];
}

/** What a search job keeps on its row for the API to answer with. */
export interface SearchJobResult {
  provider: string;
  warning?: string;
}

interface Ranked {
  candidate: CandidateRow;
  /** The page whose content was ranked: this job's scrape, or the local index's copy. */
  pageId: string | null;
  text: string | null;
  score: number;
}

/**
 * The candidates that can be returned, each with the page that stands for its content. With
 * formats, only pages stored in time count (the others failed or were cut off, and said so),
 * and a page that answered an HTTP error is dropped with a warning.
 */
async function rankable(db: Db, input: FinishSearchInput, candidates: CandidateRow[], scraping: boolean, warnings: string[]) {
  const pool = scraping ? candidates.filter((c) => input.scrapedKeys.includes(c.urlKey)) : candidates;
  const pageIds = scraping ? [] : pool.flatMap((c) => (c.indexedPageId ? [c.indexedPageId] : []));
  const where = scraping
    ? and(eq(pages.jobId, input.jobId), eq(pages.status, 'scraped'), inArray(pages.urlKey, pool.map((c) => c.urlKey)))
    : inArray(pages.id, pageIds);
  const rows =
    pool.length === 0 || (!scraping && pageIds.length === 0)
      ? []
      : await db
          .select({
            id: pages.id,
            urlKey: pages.urlKey,
            statusCode: pages.statusCode,
            text: sql<string | null>`left(${pages.text}, ${NEAR_DUPLICATE_CHARS})`,
            finalUrl: sql<string | null>`${pages.metadata}->>'url'`,
          })
          .from(pages)
          .where(where);
  const byKey = new Map(rows.map((r) => [scraping ? r.urlKey : r.id, r]));
  const errors: string[] = [];
  const docs = pool.flatMap((candidate) => {
    const page = byKey.get(scraping ? candidate.urlKey : (candidate.indexedPageId ?? ''));
    if (scraping && !page) return [];
    if (scraping && (page?.statusCode ?? 0) >= 400) {
      errors.push(`${candidate.url} (HTTP ${page!.statusCode})`);
      return [];
    }
    return [{ candidate, pageId: page?.id ?? null, text: page?.text ?? null, finalKey: page?.finalUrl ? urlKey(page.finalUrl) : candidate.urlKey }];
  });
  if (errors.length > 0) warnings.push(`Dropped ${errors.length} result page(s) that answered an HTTP error: ${errors.join(', ')}.`);
  return docs;
}

/**
 * Ranks a search job's candidates by the documented blend (ranking/blend.ts), drops pages that
 * redirect to one already kept and near-duplicate content, keeps `limit`, and in one
 * transaction records the ranks, charges for the results and completes the job. A retry after
 * the commit changes nothing and charges nothing.
 */
export async function finishSearch(db: Db, input: FinishSearchInput): Promise<{ results: number }> {
  const { jobId, options } = input;
  const [job] = await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, jobId));
  if (job?.status === 'completed') {
    const ranked = await db.select({ n: sql<number>`count(*)::int` }).from(searchResults).where(and(eq(searchResults.jobId, jobId), isNotNull(searchResults.rank)));
    return { results: ranked[0]?.n ?? 0 };
  }
  const scraping = options.scrapeOptions.formats.length > 0;
  const candidates = await loadCandidates(db, jobId);
  const warnings = [...input.warnings];
  // A candidate that redirected to a page already kept adds nothing: the better-ranked one stays.
  const seenFinal = new Set<string>();
  const docs = (await rankable(db, input, candidates, scraping, warnings)).filter((d) => {
    if (seenFinal.has(d.finalKey)) return false;
    seenFinal.add(d.finalKey);
    return true;
  });

  const config = textSearchConfigFor(options.lang);
  const [query] = await db.execute<{ q: string }>(sql`SELECT ${tsQuerySql(config, options.query)}::text AS q`);
  const lexemes = queryLexemes(query?.q ?? '');
  const byPage = await pageTermStats(db, docs.flatMap((d) => (d.pageId ? [d.pageId] : [])), lexemes);
  const bySnippet = await snippetTermStats(db, jobId, docs.filter((d) => !d.pageId).map((d) => d.candidate.providerRank), config, lexemes);
  const empty: TermStats = { tf: new Map(), length: 0 };
  const stats = docs.map((d) => (d.pageId ? byPage.get(d.pageId) : bySnippet.get(String(d.candidate.providerRank))) ?? empty);
  const bm25 = bm25Scores(stats, lexemes);
  const best = Math.max(0, ...bm25);

  const ranked: Ranked[] = docs
    .map((d, i) => ({ candidate: d.candidate, pageId: d.pageId, text: d.text, score: blendScore(d.candidate.providerRank, bm25[i]!, best) }))
    .sort((a, b) => b.score - a.score || a.candidate.providerRank - b.candidate.providerRank);
  const duplicates = nearDuplicateIndexes(ranked.map((r) => r.text));
  const results = ranked.filter((_, i) => !duplicates.has(i)).slice(0, options.limit);

  if (results.length === 0) warnings.unshift(warnings.length > 0 ? `${NO_RESULTS_WARNING}.` : NO_RESULTS_WARNING);
  const result: SearchJobResult = { provider: input.provider, ...(warnings.length > 0 && { warning: warnings.join(' ') }) };
  const credits = results.length * searchResultCredits(options.scrapeOptions.formats);
  await db.transaction(async (tx) => {
    for (const [i, r] of results.entries()) {
      await tx
        .update(searchResults)
        .set({ rank: i + 1, score: Number(r.score.toFixed(4)), scraped: scraping })
        .where(and(eq(searchResults.jobId, jobId), eq(searchResults.providerRank, r.candidate.providerRank)));
    }
    await charge(tx, { teamId: input.teamId, amount: credits, operation: 'search', jobId, idempotencyKey: `search:${jobId}` });
    await tx.update(jobs).set({ result }).where(eq(jobs.id, jobId));
    await completeJob(tx, jobId);
  });
  return { results: results.length };
}
