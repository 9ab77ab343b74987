import { boolean, index, integer, json, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { FieldNote } from '../field-note';
import type { JsonSchema } from '../../json-schema/json-schema';
import { jobs } from './jobs';
import { pages } from './pages';

/*
 * Results and schemas are `json`, not `jsonb`: jsonb reorders keys, and a result should list
 * its fields in the schema's order.
 */

/**
 * What the extraction engines made of one stored page: for an extract job's page, or for a
 * scrape's `json` format (whose data is also in pages.json). One row per page, written once.
 */
export const pageExtractions = pgTable(
  'page_extractions',
  {
    pageId: uuid('page_id')
      .primaryKey()
      .references(() => pages.id, { onDelete: 'cascade' }),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    data: json('data').$type<Record<string, unknown>>().notNull(),
    notes: json('notes').$type<FieldNote[]>().notNull(),
    /** The schema used; differs from the request's when it was inferred from a prompt. */
    schema: json('schema').$type<JsonSchema>().notNull(),
    llmTokens: integer('llm_tokens').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('page_extractions_job_idx').on(t.jobId)],
);

/** An extract job's result: the merged data with its notes and sources, and what it cost. */
export const extractions = pgTable('extractions', {
  jobId: uuid('job_id')
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  /** The schema the pages were read with: the request's, or one inferred from the prompt. */
  schema: json('schema').$type<JsonSchema>().notNull(),
  schemaInferred: boolean('schema_inferred').notNull().default(false),
  /** Tokens spent inferring the schema. */
  inferenceTokens: integer('inference_tokens').notNull().default(0),
  data: json('data').$type<Record<string, unknown>>(),
  notes: json('notes').$type<FieldNote[]>(),
  /** URLs of the pages the data was read from. */
  sources: json('sources').$type<string[]>(),
  llmTokens: integer('llm_tokens').notNull().default(0),
  credits: integer('credits').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  completedAt: timestamp('completed_at', { withTimezone: true }),
});
