import { and, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { preparedPerDb } from '../db/prepared-per-db';
import { jobs } from '../db/schema';
import { requestHash } from './idempotency';

/**
 * How long a scrape answered with 408 `processing_continues` can be picked up by the same request
 * sent again: firecrawl-js resumes for up to 20 minutes (RESUME_MAX_TOTAL_WAIT_MS).
 */
export const RESUME_WINDOW_MS = 20 * 60_000;

/** The key a request is found again by: its route and its body, whatever the fields' order. */
export function resumeKeyOf(route: string, body: unknown): string {
  return requestHash({ route, body });
}

/** Marks a scrape whose client stopped waiting at its `timeout` as one the same request may resume. */
export async function markResumable(db: Db, jobId: string, key: string): Promise<void> {
  await db.update(jobs).set({ resumeKey: key }).where(eq(jobs.id, jobId));
}

const resumableQuery = preparedPerDb((db) =>
  db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.teamId, sql.placeholder('teamId')),
        eq(jobs.resumeKey, sql.placeholder('key')),
        ne(jobs.status, 'failed'),
        gt(jobs.createdAt, sql`now() - ${`${RESUME_WINDOW_MS} milliseconds`}::interval`),
      ),
    )
    .orderBy(desc(jobs.createdAt))
    .limit(1)
    .prepare('resumable_scrape'),
);

/**
 * The team's latest scrape the same request left running or finished within the window, if any;
 * a failed one is not resumed (the request starts afresh).
 */
export async function findResumable(db: Db, teamId: string, key: string): Promise<string | undefined> {
  const [job] = await resumableQuery(db).execute({ teamId, key });
  return job?.id;
}
