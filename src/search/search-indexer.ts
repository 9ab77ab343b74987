import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import type { Queryable } from '../db/client';
import { SEARCH_VECTOR } from '../db/schema/pages';
import { METRIC_PREFIX, metrics } from '../metrics/registry';
import { repeatEvery, type Repeating } from '../runtime/repeat-every';

const pagesIndexed = new Counter({
  name: `${METRIC_PREFIX}search_pages_indexed_total`,
  help: "Stored pages this worker's search indexer put in the local search index (a local search indexes what the indexer has not reached yet itself, uncounted).",
  registers: [metrics],
});

/** Pages indexed in one statement: a few hundred milliseconds of Postgres on pages of 100,000 characters. */
export const INDEX_BATCH = 200;

/**
 * Computes the search vector of up to `limit` stored, searchable pages that have none yet, in
 * one statement; answers how many it indexed. `skipLocked`: the background indexer passes over
 * pages another indexer holds; a search waits for them instead, so it sees every page stored
 * before it began.
 */
export async function indexPendingPages(db: Queryable, limit: number, skipLocked: boolean): Promise<number> {
  const rows = await db.execute(sql`
    UPDATE pages p SET search_vector = ${SEARCH_VECTOR}
    FROM (SELECT id FROM pages WHERE searchable AND search_vector IS NULL ORDER BY id LIMIT ${limit}
          FOR UPDATE ${skipLocked ? sql`SKIP LOCKED` : sql``}) pending
    WHERE p.id = pending.id
    RETURNING p.id`);
  return rows.length;
}

/**
 * Indexes newly stored pages every `intervalMs`, batch after batch until none is left, so a
 * page is in the local search index within about `intervalMs` of being stored while the indexer
 * keeps up. Storing a page (the crawl's hot path) computes no vector.
 */
export function startSearchIndexer(db: Queryable, intervalMs: number, logger: Logger): Repeating {
  const log = logger.child({ component: 'search-indexer' });
  return repeatEvery(intervalMs, async () => {
    try {
      let indexed: number;
      do {
        indexed = await indexPendingPages(db, INDEX_BATCH, true);
        pagesIndexed.inc(indexed);
      } while (indexed === INDEX_BATCH);
    } catch (err) {
      // Postgres away: the next pass tries again.
      log.warn({ err }, 'search index pass failed');
    }
  });
}
