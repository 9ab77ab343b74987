import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { charge } from '../credits/ledger';
import type { Db, Queryable } from '../db/client';
import { extractions, jobs, pageExtractions, pages } from '../db/schema';
import type { ExtractionResult } from '../extract/extraction-result';
import type { JsonSchema } from '../json-schema/json-schema';
import type { PageChargeSpec } from './page-store';

export type PageExtractionRow = typeof pageExtractions.$inferSelect;
export type ExtractionRow = typeof extractions.$inferSelect;

export async function findPageExtraction(db: Queryable, pageId: string): Promise<PageExtractionRow | undefined> {
  const [row] = await db.select().from(pageExtractions).where(eq(pageExtractions.pageId, pageId));
  return row;
}

export async function findPageExtractions(db: Queryable, pageIds: string[]): Promise<PageExtractionRow[]> {
  return pageIds.length ? db.select().from(pageExtractions).where(inArray(pageExtractions.pageId, pageIds)) : [];
}

/** A page's charge made together with its extraction (a scrape's `json` format). */
export interface ExtractionCharge extends PageChargeSpec {
  teamId: string;
  /** Also mark the job completed (single-page jobs). */
  finishJob: boolean;
}

/**
 * Stores one page's extraction (and, for a scrape's `json` format, the data in pages.json, the
 * page's charge and the job's completion) in one transaction. A page extracted by an earlier
 * attempt keeps its first result and is not charged again.
 */
export async function storePageExtraction(
  db: Db,
  row: { pageId: string; jobId: string; schema: JsonSchema; result: ExtractionResult },
  paid?: ExtractionCharge,
): Promise<PageExtractionRow> {
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(pageExtractions)
      .values({ pageId: row.pageId, jobId: row.jobId, data: row.result.data, notes: row.result.notes, schema: row.schema, llmTokens: row.result.llmTokens })
      .onConflictDoNothing({ target: pageExtractions.pageId })
      .returning();
    if (!inserted) return (await findPageExtraction(tx, row.pageId))!;
    await tx
      .update(pages)
      // Added: a crawl's page may have been charged for its LLM formats already.
      .set({ json: row.result.data, ...(paid && { credits: sql`${pages.credits} + ${paid.amount}` }) })
      .where(eq(pages.id, row.pageId));
    if (paid) {
      await charge(tx, { teamId: paid.teamId, amount: paid.amount, operation: paid.operation, jobId: row.jobId, idempotencyKey: paid.idempotencyKey });
      if (paid.finishJob) await tx.update(jobs).set({ status: 'completed', finishedAt: new Date() }).where(eq(jobs.id, row.jobId));
    }
    return inserted;
  });
}

export async function findExtraction(db: Queryable, jobId: string): Promise<ExtractionRow | undefined> {
  const [row] = await db.select().from(extractions).where(eq(extractions.jobId, jobId));
  return row;
}

/** Keeps the schema inferred for a prompt-only job; an earlier attempt's schema wins. */
export async function storeInferredSchema(db: Db, jobId: string, schema: JsonSchema, tokens: number): Promise<JsonSchema> {
  await db.insert(extractions).values({ jobId, schema, schemaInferred: true, inferenceTokens: tokens }).onConflictDoNothing({ target: extractions.jobId });
  return (await findExtraction(db, jobId))!.schema;
}

export interface CompletedExtraction {
  jobId: string;
  teamId: string;
  schema: JsonSchema;
  result: ExtractionResult;
  sources: string[];
  /** Every LLM token of the job: pages and schema inference. */
  llmTokens: number;
  credits: number;
}

/**
 * Stores an extract job's merged result, charges it (once: `extract:<job>`) and completes the
 * job, in one transaction. A job completed by an earlier attempt is left as it is.
 */
export async function completeExtraction(db: Db, c: CompletedExtraction): Promise<void> {
  await db.transaction(async (tx) => {
    const values = { data: c.result.data, notes: c.result.notes, sources: c.sources, llmTokens: c.llmTokens, credits: c.credits, completedAt: new Date() };
    const [stored] = await tx
      .insert(extractions)
      .values({ jobId: c.jobId, schema: c.schema, ...values })
      .onConflictDoUpdate({ target: extractions.jobId, set: values, setWhere: isNull(extractions.completedAt) })
      .returning({ jobId: extractions.jobId });
    if (!stored) return;
    await charge(tx, { teamId: c.teamId, amount: c.credits, operation: 'extract', jobId: c.jobId, idempotencyKey: `extract:${c.jobId}` });
    await tx.update(jobs).set({ status: 'completed', finishedAt: new Date() }).where(and(eq(jobs.id, c.jobId), eq(jobs.status, 'scraping')));
  });
}

/** Ends a job that did not complete; one that already ended keeps its status. */
export async function endJobUnfinished(db: Db, jobId: string, status: 'failed' | 'cancelled', code: string, message: string): Promise<void> {
  await db
    .update(jobs)
    .set({ status, errorCode: code, error: message, finishedAt: sql`now()` })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, 'scraping')));
}
