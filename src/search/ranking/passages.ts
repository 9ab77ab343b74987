import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import type { TextSearchConfig } from '../../db/text-search-language';
import { queryLexemes, tsQuerySql } from '../ts-query';
import { bm25Scores, type TermStats } from './bm25';
import { passageTermStats } from './term-stats';

/** A passage is whole sentences of one block, up to about this long: enough to answer, short enough to quote. */
const MAX_PASSAGE_CHARS = 400;
/**
 * Fewer words than this is a heading, a label or a menu entry: it matches a query easily (BM25
 * favours short texts) but answers little, so it ranks after every longer passage that matches.
 */
const MIN_ANSWER_WORDS = 5;
/** Passages ranked per page: the first of a very long page. */
const MAX_PASSAGES = 3_000;

/**
 * A page's text cut into passages: each block (line) of the text on its own, cut between
 * sentences when longer than MAX_PASSAGE_CHARS. Every passage is a substring of the text, so
 * it can be quoted as it stands.
 */
export function passagesOf(text: string): string[] {
  const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });
  const out: string[] = [];
  for (const block of text.split('\n')) {
    let passage = '';
    for (const { segment } of sentences.segment(block)) {
      if (passage.trim() && passage.length + segment.length > MAX_PASSAGE_CHARS) {
        out.push(passage.trim());
        passage = '';
      }
      passage += segment;
    }
    if (passage.trim()) out.push(passage.trim());
    if (out.length >= MAX_PASSAGES) break;
  }
  return out.slice(0, MAX_PASSAGES);
}

export interface RankedPassage {
  text: string;
  /** Position in the page, from 0. */
  index: number;
  score: number;
}

/**
 * The passages of `text` that share a word with `query`, best first, scored as search ranks
 * pages: the query's lexemes (the local index's tsquery, stemmed in `config`), BM25 over the
 * page's passages. Passages too short to answer come last.
 */
export async function rankPassages(db: Queryable, text: string, query: string, config: TextSearchConfig): Promise<RankedPassage[]> {
  const [parsed] = await db.execute<{ q: string }>(sql`SELECT ${tsQuerySql(config, query)}::text AS q`);
  const lexemes = queryLexemes(parsed?.q ?? '');
  const passages = passagesOf(text);
  const stats = await passageTermStats(db, passages, config, lexemes);
  const empty: TermStats = { tf: new Map(), length: 0 };
  const scores = bm25Scores(
    passages.map((_, i) => stats.get(String(i)) ?? empty),
    lexemes,
  );
  const short = (p: RankedPassage) => (p.text.split(/\s+/).length < MIN_ANSWER_WORDS ? 1 : 0);
  return passages
    .map((p, i) => ({ text: p, index: i, score: scores[i]! }))
    .filter((p) => p.score > 0)
    .sort((a, b) => short(a) - short(b) || b.score - a.score || a.index - b.index);
}
