import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { textSearchConfigFor } from '../../db/text-search-language';
import { timeWindow } from '../time-filter';
import { locationIgnored, type ProviderAnswer, type ProviderQuery, type SearchProvider } from './search-provider';
import { tsQuerySql } from '../ts-query';
import { indexPendingPages } from '../search-indexer';

/**
 * Pages a search indexes itself, at most, before it queries: the indexer's backlog while it keeps
 * up with a crawl; beyond it (just after a large crawl) the rest waits for the indexer.
 */
const SEARCH_CATCH_UP = 500;

interface IndexRow extends Record<string, unknown> {
  id: string;
  url: string;
  title: string | null;
  description: string | null;
}

/**
 * `local`: Postgres full-text search over every page this deployment has scraped or crawled
 * (pages marked searchable), newest copy per URL, ranked by ts_rank over the weighted vector.
 * `lang` picks the stemmer and the pages of that language; `tbs` filters on when the page was
 * scraped; country and location do not apply to a local index (a location is named in a warning). News are the dated pages
 * (articles with a published time), which is what this index knows of news.
 */
export class LocalIndexProvider implements SearchProvider {
  readonly name = 'local';

  constructor(
    private readonly db: Db,
    /** Longest the query may run (Postgres statement_timeout), as for any provider. */
    private readonly timeoutMs: number,
  ) {}

  async search(q: ProviderQuery, signal: AbortSignal): Promise<ProviderAnswer> {
    const config = textSearchConfigFor(q.lang);
    const window = q.timeFilter && timeWindow(q.timeFilter, Date.now());
    // Only a URL's newest searchable copy counts: an older copy that matched is not the page today.
    const query = this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('statement_timeout', ${String(this.timeoutMs)}, true)`);
      // Pages stored since the indexer's last pass are indexed first, so a search finds every page stored before it.
      await indexPendingPages(tx, SEARCH_CATCH_UP, false);
      return tx.execute<IndexRow>(sql`
        SELECT id, url, title, description FROM (
          SELECT DISTINCT ON (p.url_key) p.id, coalesce(p.metadata->>'url', p.url) AS url, p.title, p.description,
                 ts_rank(p.search_vector, q.query, 1) AS rank
          FROM pages p, (SELECT ${tsQuerySql(config, q.query)} AS query) q
          WHERE p.searchable AND p.search_language = ${config} AND p.search_vector @@ q.query
            AND NOT EXISTS (SELECT 1 FROM pages n WHERE n.url_key = p.url_key AND n.searchable AND n.scraped_at > p.scraped_at)
            ${window ? sql`AND p.scraped_at BETWEEN ${window.from.toISOString()} AND ${window.to.toISOString()}` : sql``}
            ${q.vertical === 'news' ? sql`AND p.metadata->>'publishedTime' IS NOT NULL` : sql``}
          ORDER BY p.url_key, p.scraped_at DESC
        ) newest
        ORDER BY rank DESC, url
        LIMIT ${q.candidates}`);
    });
    // The chain moves on when the signal fires; the statement timeout ends the query itself.
    const rows = await new Promise<IndexRow[]>((resolve, reject) => {
      const abort = () => reject(signal.reason);
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      query.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
    });
    return {
      hits: rows.map((r) => ({ url: r.url, title: r.title ?? '', description: r.description ?? '', indexedPageId: r.id })),
      warnings: q.location ? [locationIgnored('the local index')] : [],
    };
  }
}
