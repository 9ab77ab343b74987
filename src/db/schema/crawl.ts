import { bigserial, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { jobs } from './jobs';

/**
 * A page's links to other pages of its crawl, by URL key: the crawl graph. One row per linking
 * page, its targets in one array: a page links to dozens of others (menus, footers), and a row
 * per link cost an index entry and a foreign-key check each.
 */
export const edges = pgTable(
  'edges',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    fromKey: text('from_key').notNull(),
    toKeys: text('to_keys').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.fromKey] })],
);

/**
 * How many pages a crawl (or batch) may take, and how many it has admitted to its frontier. Its
 * own row rather than columns of the job: each page that finds new links locks it, counts and
 * updates it, while every page also inserts rows referencing the job, whose foreign-key checks
 * lock the job row. Locking, then updating, a row that those checks share-lock at the same time
 * deadlocked page transactions against each other.
 */
export const crawlBudgets = pgTable('crawl_budgets', {
  jobId: uuid('job_id')
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  /** Most pages the crawl takes, after clamping to the team's credits. */
  pageLimit: integer('page_limit').notNull(),
  /** Pages admitted to the frontier so far (robots-blocked URLs do not count). */
  admitted: integer('admitted').notNull().default(0),
});

/** Per-host politeness of a crawl: robots.txt Crawl-delay and the caller's `delay`. */
export const crawlHosts = pgTable(
  'crawl_hosts',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    host: text('host').notNull(),
    delayMs: integer('delay_ms').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.host] })],
);

export type WebhookEventType = 'crawl.started' | 'crawl.page' | 'crawl.completed' | 'crawl.failed';

/**
 * Webhook outbox: events are written in the transaction that causes them and delivered by a
 * separate workflow, so a slow or failing receiver never holds up the crawl.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    /** One event per cause: `page:<urlKey>`, `started`, `completed:<round>`. */
    eventKey: text('event_key').notNull(),
    type: text('type').$type<WebhookEventType>().notNull(),
    pageId: uuid('page_id'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** Set when delivery was given up after the last attempt. */
    abandonedAt: timestamp('abandoned_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_events_pending_idx').on(t.jobId, t.deliveredAt), uniqueIndex('webhook_events_key_idx').on(t.jobId, t.eventKey)],
);
