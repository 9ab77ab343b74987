import { and, eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../db/client';
import { preparedPerDb } from '../db/prepared-per-db';
import { crawlBudgets, jobs, type JobKind } from '../db/schema';

export type JobRow = typeof jobs.$inferSelect;

export interface NewJob {
  id: string;
  teamId: string;
  kind: JobKind;
  url?: string;
  options: unknown;
  /** A crawl's or batch's most pages; gives the job its budget row. */
  pageLimit?: number;
  ttlHours: number;
  idempotencyKey?: string;
  requestHash?: string;
}

/** The insert of a job row, one statement on every scrape: made once, with a placeholder per column. */
const insertJob = preparedPerDb((db) =>
  db
    .insert(jobs)
    .values({
      id: sql.placeholder('id'),
      teamId: sql.placeholder('teamId'),
      kind: sql.placeholder('kind'),
      url: sql.placeholder('url'),
      options: sql.placeholder('options'),
      idempotencyKey: sql.placeholder('idempotencyKey'),
      requestHash: sql.placeholder('requestHash'),
      expiresAt: sql.placeholder('expiresAt'),
    })
    .returning()
    .prepare('insert_job'),
);

export async function createJob(db: Db, job: NewJob): Promise<JobRow> {
  const values = {
    id: job.id,
    teamId: job.teamId,
    kind: job.kind,
    url: job.url ?? null,
    options: job.options ?? {},
    idempotencyKey: job.idempotencyKey ?? null,
    requestHash: job.requestHash ?? null,
    expiresAt: new Date(Date.now() + job.ttlHours * 3_600_000),
  };
  // A job without a page budget is one statement: no BEGIN and COMMIT round trips on every scrape.
  if (job.pageLimit === undefined) return (await insertJob(db).execute(values))[0]!;
  const { pageLimit } = job;
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(jobs).values(values).returning();
    await tx.insert(crawlBudgets).values({ jobId: job.id, pageLimit });
    return row!;
  });
}

/** A job of this team; another team's job is indistinguishable from a missing one. */
export async function findJob(db: Db, teamId: string, id: string): Promise<JobRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [row] = await db.select().from(jobs).where(and(eq(jobs.id, id), eq(jobs.teamId, teamId)));
  return row;
}

/** Removes a job its request refused before any work began (see runScrape). */
export async function discardJob(db: Queryable, id: string): Promise<void> {
  await db.delete(jobs).where(eq(jobs.id, id));
}

/** Marks a job completed, inside the transaction that stored its result. */
export async function completeJob(tx: Queryable, id: string): Promise<void> {
  await tx.update(jobs).set({ status: 'completed', finishedAt: new Date() }).where(eq(jobs.id, id));
}

/** Marks a job failed for good, with the code and message its caller will see. */
export async function failJob(db: Queryable, id: string, failure: { code: string; message: string }): Promise<void> {
  await db.update(jobs).set({ status: 'failed', errorCode: failure.code, error: failure.message, finishedAt: new Date() }).where(eq(jobs.id, id));
}
