import { sql } from 'drizzle-orm';
import { boolean, customType, index, integer, json, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DEFAULT_TEXT_SEARCH_CONFIG, TEXT_SEARCH_CONFIGS, type TextSearchConfig } from '../text-search-language';
import type { BrandingProfile } from '../branding-profile';
import type { LlmFormats } from '../llm-formats';
import type { ActionResults, StoredMetadata } from '../page-metadata';
import { jobs } from './jobs';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Characters of body text indexed per page: well under tsvector's 1 MB cap, and plenty to rank on. */
const INDEXED_TEXT_CHARS = 100_000;

/**
 * The page's stemmer. A generated column needs an immutable expression, so the configuration is
 * picked by a CASE over constants rather than a cast of the column.
 */
const searchConfig = `CASE search_language ${TEXT_SEARCH_CONFIGS.map((c) => `WHEN '${c}' THEN '${c}'::regconfig`).join(' ')} ELSE '${DEFAULT_TEXT_SEARCH_CONFIG}'::regconfig END`;

/**
 * A page's search vector, from its row's columns: title weighs most (A), then headings and
 * description (B), then the body (C). Computed after the page is stored, by the search indexer
 * (src/search/search-indexer.ts), not as the row is written: `to_tsvector` of up to 100,000
 * characters was a third of Postgres's time for a crawled page.
 */
export const SEARCH_VECTOR = sql.raw(
  [
    `setweight(to_tsvector(${searchConfig}, coalesce(title, '')), 'A')`,
    `setweight(to_tsvector(${searchConfig}, coalesce(headings, '') || ' ' || coalesce(description, '')), 'B')`,
    `setweight(to_tsvector(${searchConfig}, left(coalesce(text, ''), ${INDEXED_TEXT_CHARS})), 'C')`,
  ].join(' || '),
);

/**
 * queued: in a crawl's frontier. scraping: claimed by a batch in flight. scraped / failed:
 * done. blocked: refused by robots.txt (listed, never fetched, not counted against the limit).
 */
export type PageStatus = 'queued' | 'scraping' | 'scraped' | 'failed' | 'blocked';

/**
 * One URL of a job. (job, url_key) is unique, so a retried activity updates its row rather than
 * adding one. Formats are stored as produced; the API picks what the caller asked for.
 */
export const pages = pgTable(
  'pages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    urlKey: text('url_key').notNull(),
    url: text('url').notNull(),
    depth: integer('depth').notNull().default(0),
    /** host:port, for per-host politeness in a crawl. */
    host: text('host'),
    /** The batch that claimed this page; a retried batch finds its pages by it. */
    claimId: text('claim_id'),
    /** A page put back in the frontier (Retry-After, backoff) waits until then. */
    notBefore: timestamp('not_before', { withTimezone: true }),
    status: text('status').$type<PageStatus>().notNull().default('queued'),
    /** Hash of the options that shape the content; a `maxAge` cache hit must match it. */
    variant: text('variant'),
    statusCode: integer('status_code'),
    title: text('title'),
    description: text('description'),
    /** The page's headings, one per line, for the search index's middle weight. */
    headings: text('headings'),
    markdown: text('markdown'),
    html: text('html'),
    rawHtml: text('raw_html'),
    text: text('text'),
    links: jsonb('links').$type<string[]>(),
    screenshot: text('screenshot'),
    /** The json format's result; `json` keeps the schema's key order (jsonb would sort keys). */
    json: json('json'),
    /** Results of the scrape's `actions`, when it had any. */
    actions: jsonb('actions').$type<ActionResults>(),
    /** The v2 branding format's reading of the rendered page, when it was asked for. */
    branding: jsonb('branding').$type<BrandingProfile>(),
    /** A crawl's or batch's v2 answer, product and menu, read as the page was stored when an LLM is configured. */
    llmFormats: jsonb('llm_formats').$type<LlmFormats>(),
    warning: text('warning'),
    metadata: jsonb('metadata').$type<StoredMetadata>(),
    errorCode: text('error_code'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    credits: integer('credits').notNull().default(0),
    /**
     * In the local search index: a successful page fetched without custom headers or actions,
     * so its content is what anyone would see at the URL.
     */
    searchable: boolean('searchable').notNull().default(false),
    /** Text-search configuration of the page's language (see text-search-language.ts). */
    searchLanguage: text('search_language').$type<TextSearchConfig>().notNull().default(DEFAULT_TEXT_SEARCH_CONFIG),
    /** Null until the search indexer has indexed the page (every searchable page, shortly after it is stored). */
    searchVector: tsvector('search_vector'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    scrapedAt: timestamp('scraped_at', { withTimezone: true }),
  },
  /*
   * The job's other indexes are partial, each to the rows its queries ask for, so a lookup by
   * (job, URL) that names no status or claim has one index to use. When they were whole, a
   * planner without statistics on `pages` (a new database, the first minute of a crawl) saw them
   * as equally good and could scan every page of the job through the scraped-at index for each
   * URL looked up: a crawl cost quadratic in its size.
   */
  (t) => [
    uniqueIndex('pages_job_url_idx').on(t.jobId, t.urlKey),
    /** The frontier: what claims (in id order, at one depth) and in-flight counts read. */
    index('pages_job_status_idx').on(t.jobId, t.status, t.depth, t.id).where(sql`${t.status} in ('queued', 'scraping')`),
    index('pages_job_claim_idx').on(t.jobId, t.claimId).where(sql`${t.claimId} is not null`),
    /** A crawl's documents in the order they were scraped. */
    index('pages_job_scraped_idx').on(t.jobId, t.scrapedAt).where(sql`${t.status} = 'scraped'`),
    index('pages_cache_idx').on(t.urlKey, t.variant, t.scrapedAt),
    index('pages_search_idx').using('gin', t.searchVector).where(sql`${t.searchable}`),
    /** What the search indexer has still to index. */
    index('pages_unindexed_idx').on(t.id).where(sql`${t.searchable} and ${t.searchVector} is null`),
  ],
);
