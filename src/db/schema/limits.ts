import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { teams } from './accounts';

/**
 * A team's own limits, where they differ from the deployment's defaults (src/config/env.ts): a
 * null column means the default. Set with `wcs limits set`.
 */
export const teamLimits = pgTable('team_limits', {
  teamId: uuid('team_id')
    .primaryKey()
    .references(() => teams.id, { onDelete: 'cascade' }),
  /** Requests per minute of all the team's keys together; 0: none. */
  requestsPerMinute: integer('requests_per_minute'),
  /** Requests per minute of each of the team's keys; 0: none. */
  keyRequestsPerMinute: integer('key_requests_per_minute'),
  /** Pages the team's crawls and batches fetch at once, across all workers. */
  pagesInFlight: integer('pages_in_flight'),
});

/**
 * Request counts in fixed one-minute windows, shared by every API replica. One row per bucket
 * (`key:<prefix>`, `team:<id>`), reset in place when a new window starts, so the table never
 * grows past the number of keys and teams. Unlogged (migration 0008, which drizzle's schema
 * cannot say): a count's commit waits for no WAL flush, and a crash empties the table.
 */
export const rateLimitWindows = pgTable('rate_limit_windows', {
  bucket: text('bucket').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull(),
});
