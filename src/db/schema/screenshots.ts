import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ScreenshotDetails } from '../screenshot-details';

/**
 * One stored image. The id is the capability in the image URL (128 random bits); the row is the
 * only way to reach the object, so deleting an expired row and its object ends the URL. No
 * foreign keys on purpose: a cascade from a deleted job or team would orphan the objects; the
 * cleanup Schedule removes rows and objects together.
 */
export const screenshots = pgTable(
  'screenshots',
  {
    id: text('id').primaryKey(),
    teamId: uuid('team_id').notNull(),
    jobId: uuid('job_id'),
    storageKey: text('storage_key').notNull(),
    format: text('format').$type<'png' | 'jpeg'>().notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    /** What POST /v1/screenshot reports besides the image: viewport, page, timing, warning. */
    details: jsonb('details').$type<ScreenshotDetails>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('screenshots_expires_idx').on(t.expiresAt), index('screenshots_job_idx').on(t.jobId)],
);
