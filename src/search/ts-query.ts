import { sql, type SQL } from 'drizzle-orm';
import type { TextSearchConfig } from '../db/text-search-language';

/** The rules ts_rewrite applies: each word of a synonym group becomes the group's alternatives. */
function synonymRules(config: TextSearchConfig): string {
  return [
    `SELECT phraseto_tsquery('${config}', w),`,
    `(SELECT string_agg('(' || phraseto_tsquery('${config}', x)::text || ')', ' | ') FROM unnest(words) x WHERE numnode(phraseto_tsquery('${config}', x)) > 0)::tsquery`,
    `FROM search_synonyms, unnest(words) w`,
    `WHERE config = '${config}' AND numnode(phraseto_tsquery('${config}', w)) > 0`,
  ].join(' ');
}

/**
 * The tsquery for a user's query: web-search syntax ("quoted phrases", or, -not), stemmed in
 * `config`, widened by the synonym groups, and, unless it negates a word, relaxed from AND to
 * OR so that a natural-language question still finds pages that lack one of its words (ranking
 * then favours the pages that have them all). `config` comes from TEXT_SEARCH_CONFIGS, never
 * from the request.
 */
export function tsQuerySql(config: TextSearchConfig, query: string): SQL {
  const rewritten = sql`ts_rewrite(websearch_to_tsquery(${sql.raw(`'${config}'`)}::regconfig, ${query}), ${synonymRules(config)})`;
  return sql`(SELECT CASE WHEN strpos(q::text, '!') > 0 THEN q ELSE replace(q::text, ' & ', ' | ')::tsquery END FROM ${rewritten} AS q)`;
}

/** The lexemes a tsquery's text names, negated ones excluded: what BM25 counts in a page. */
export function queryLexemes(tsquery: string): string[] {
  const lexemes = new Set<string>();
  for (const m of tsquery.matchAll(/(!?\s*)'((?:[^']|'')+)'/g)) {
    if (!m[1]!.includes('!')) lexemes.add(m[2]!.replace(/''/g, "'"));
  }
  return [...lexemes];
}
