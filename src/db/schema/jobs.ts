import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { teams } from './accounts';

export type JobKind = 'scrape' | 'crawl' | 'batch' | 'map' | 'search' | 'extract' | 'screenshot';
export type JobStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';

/** One API call that does work. The Temporal workflow id is `<kind>-<id>`. */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<JobKind>().notNull(),
    status: text('status').$type<JobStatus>().notNull().default('scraping'),
    url: text('url'),
    options: jsonb('options').notNull().default({}),
    /** Crawl: bumped by each retry of failed pages, so each round has its own completion event. */
    round: integer('round').notNull().default(0),
    /** Small results that are not pages (map's links, extract's data). */
    result: jsonb('result'),
    errorCode: text('error_code'),
    error: text('error'),
    /** Client-chosen `x-idempotency-key` and a hash of the body it came with. */
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash'),
    /**
     * Set on a scrape its client stopped waiting for at its `timeout` (408, processing continues):
     * the hash of the route and body, by which the same request sent again finds this job.
     */
    resumeKey: text('resume_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('jobs_team_created_idx').on(t.teamId, t.createdAt),
    uniqueIndex('jobs_team_idempotency_idx').on(t.teamId, t.idempotencyKey),
    /** Work in flight: what a team's in-flight limit and the API's saturation check count. */
    index('jobs_in_flight_idx').on(t.teamId, t.kind).where(sql`${t.status} = 'scraping'`),
    index('jobs_team_resume_idx').on(t.teamId, t.resumeKey).where(sql`${t.resumeKey} is not null`),
  ],
);
