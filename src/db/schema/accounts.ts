import { randomBytes } from 'node:crypto';
import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A customer. `credits` is the balance; every change to it has a ledger row. */
export const teams = pgTable('teams', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  credits: bigint('credits', { mode: 'number' }).notNull().default(0),
  /** Key of the HMAC-SHA256 signature on this team's webhook deliveries. */
  webhookSecret: text('webhook_secret')
    .notNull()
    .$defaultFn(() => randomBytes(32).toString('hex')),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Bearer keys. Only the SHA-256 of a key is stored; `prefix` identifies it to people. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    prefix: text('prefix').notNull().unique(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_team_idx').on(t.teamId)],
);
