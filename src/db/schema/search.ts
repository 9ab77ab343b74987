import { boolean, index, integer, pgTable, primaryKey, real, serial, text, uuid } from 'drizzle-orm/pg-core';
import type { TextSearchConfig } from '../text-search-language';
import { jobs } from './jobs';
import { pages } from './pages';

/**
 * The candidates a search job's provider answered, in provider order, and after ranking the
 * ones returned (`rank`, best first) with their blended `score`. The workflow passes only
 * counts and URLs; the candidates live here.
 */
export const searchResults = pgTable(
  'search_results',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    /** 1-based position in the provider's answer, after duplicates were dropped. */
    providerRank: integer('provider_rank').notNull(),
    provider: text('provider').notNull(),
    url: text('url').notNull(),
    urlKey: text('url_key').notNull(),
    title: text('title').notNull().default(''),
    description: text('description').notNull().default(''),
    /** The local provider's hit: the stored page whose content matched. */
    indexedPageId: uuid('indexed_page_id').references(() => pages.id, { onDelete: 'set null' }),
    /** Position among the returned results, from 1; null when the candidate was not returned. */
    rank: integer('rank'),
    score: real('score'),
    /** Charged as a scraped result (its page is this job's page with the same url_key). */
    scraped: boolean('scraped').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.providerRank] }), index('search_results_job_rank_idx').on(t.jobId, t.rank)],
);

/**
 * Synonym groups for the local index, per text-search configuration: a query word from a group
 * also matches the group's other words (applied with ts_rewrite). Seeded by a migration;
 * operators add their own rows.
 */
export const searchSynonyms = pgTable(
  'search_synonyms',
  {
    id: serial('id').primaryKey(),
    config: text('config').$type<TextSearchConfig>().notNull(),
    words: text('words').array().notNull(),
  },
  (t) => [index('search_synonyms_config_idx').on(t.config)],
);
