import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { SEARCH_VECTOR } from '../../db/schema/pages';
import type { TextSearchConfig } from '../../db/text-search-language';
import { FIELD_WEIGHT, type TermStats } from './bm25';

interface LexemeRow extends Record<string, unknown> {
  key: string;
  length: number;
  lexeme: string | null;
  weights: string[] | null;
}

/**
 * Per document, the field-weighted count of each query lexeme and the document's length,
 * read off a tsvector, so pages are tokenised and stemmed exactly as the index does it.
 * `vectors` selects (key, v) rows; documents without a query lexeme still get their length.
 */
async function statsOf(db: Queryable, vectors: SQL, lexemes: readonly string[]): Promise<Map<string, TermStats>> {
  const rows = await db.execute<LexemeRow>(sql`
    SELECT d.key, (SELECT coalesce(sum(cardinality(x.positions)), 0) FROM unnest(d.v) x)::int AS length, l.lexeme, l.weights
    FROM (${vectors}) d
    LEFT JOIN LATERAL (SELECT u.lexeme, u.weights FROM unnest(d.v) u WHERE u.lexeme IN ${lexemes}) l ON true`);
  const stats = new Map<string, { tf: Map<string, number>; length: number }>();
  for (const r of rows) {
    const doc = stats.get(r.key) ?? { tf: new Map(), length: r.length };
    stats.set(r.key, doc);
    if (r.lexeme && r.weights) doc.tf.set(r.lexeme, r.weights.reduce((sum, w) => sum + (FIELD_WEIGHT[w] ?? 1), 0));
  }
  return stats;
}

/**
 * Stats of stored pages, from their indexed vector, or the vector the index would give them
 * (pages a search has just scraped are not indexed yet, and pages outside the index never are);
 * keyed by page id.
 */
export function pageTermStats(db: Queryable, pageIds: readonly string[], lexemes: readonly string[]): Promise<Map<string, TermStats>> {
  if (pageIds.length === 0 || lexemes.length === 0) return Promise.resolve(new Map());
  return statsOf(db, sql`SELECT p.id::text AS key, coalesce(p.search_vector, ${SEARCH_VECTOR}) AS v FROM pages p WHERE p.id IN ${pageIds}`, lexemes);
}

/**
 * Stats of passages of one page's text (all body weight), stemmed in the page's language;
 * keyed by the passage's index.
 */
export function passageTermStats(db: Queryable, passages: readonly string[], config: TextSearchConfig, lexemes: readonly string[]): Promise<Map<string, TermStats>> {
  if (passages.length === 0 || lexemes.length === 0) return Promise.resolve(new Map());
  const cfg = sql.raw(`'${config}'::regconfig`);
  return statsOf(
    db,
    sql`SELECT (t.n - 1)::text AS key, to_tsvector(${cfg}, t.p) AS v FROM unnest(${sql.param(passages)}::text[]) WITH ORDINALITY AS t(p, n)`,
    lexemes,
  );
}

/**
 * Stats of results known only by the provider's title (A) and snippet (B), stemmed in the
 * query's language; keyed by provider rank.
 */
export function snippetTermStats(
  db: Queryable,
  jobId: string,
  providerRanks: readonly number[],
  config: TextSearchConfig,
  lexemes: readonly string[],
): Promise<Map<string, TermStats>> {
  if (providerRanks.length === 0 || lexemes.length === 0) return Promise.resolve(new Map());
  const cfg = sql.raw(`'${config}'::regconfig`);
  return statsOf(
    db,
    sql`SELECT r.provider_rank::text AS key, setweight(to_tsvector(${cfg}, r.title), 'A') || setweight(to_tsvector(${cfg}, r.description), 'B') AS v
        FROM search_results r WHERE r.job_id = ${jobId} AND r.provider_rank IN ${providerRanks}`,
    lexemes,
  );
}
