import { bigserial, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { teams } from './accounts';

/**
 * Every credit movement: grants are positive, charges negative. The unique idempotency key
 * (`scrape:<job>`, `crawl:<job>:<urlKey>`, ...) is what makes a retried charge a no-op.
 */
export const ledger = pgTable(
  'ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    operation: text('operation').notNull(),
    jobId: uuid('job_id'),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ledger_team_idx').on(t.teamId), index('ledger_job_idx').on(t.jobId)],
);
