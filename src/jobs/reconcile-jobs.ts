import { WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { and, asc, eq, gt, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs } from '../db/schema';
import { endJobUnfinished } from './extraction-store';
import type { JobRow } from './job-store';

/** Jobs looked at per pass, oldest first from where the last pass stopped. */
const BATCH = 200;
/** Workflows described at once. */
const PARALLEL = 8;
/**
 * How old a job must be before a missing workflow counts: the API writes the row, then starts
 * the workflow, and a job caught between the two is not lost.
 */
const MISSING_AFTER_MS = 5 * 60_000;

/** Where the next pass starts: the last job looked at, by (created_at, id). */
export interface ReconcileCursor {
  /** created_at of the last job looked at. */
  createdAt: Date;
  /** Its id, which orders jobs created at the same instant. */
  id: string;
}

/** What one pass found and did. */
export interface ReconcilePass {
  /** Unfinished jobs looked at. */
  checked: number;
  /** Jobs given their final status, with what Temporal said. */
  ended: { jobId: string; workflowId: string; status: 'failed' | 'cancelled'; reason: string }[];
  /** Where the next pass starts; absent when this one reached the newest job. */
  next?: ReconcileCursor;
}

/** The workflow id of a job: `<kind>-<id>`, but a batch scrape runs as a crawl. */
export function workflowIdOf(job: Pick<JobRow, 'id' | 'kind'>): string {
  return `${job.kind === 'batch' ? 'crawl' : job.kind}-${job.id}`;
}

type Verdict = { status: 'failed' | 'cancelled'; code: string; reason: string } | undefined;

/** Why the job's workflow ended, if it ended without recording it; undefined while it runs (or ended cleanly). */
async function verdictOf(temporal: Client, job: Pick<JobRow, 'id' | 'kind' | 'createdAt'>): Promise<Verdict> {
  const handle = temporal.workflow.getHandle(workflowIdOf(job));
  let status: string;
  try {
    status = (await handle.describe()).status.name;
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    if (Date.now() - job.createdAt.getTime() < MISSING_AFTER_MS) return undefined;
    return { status: 'failed', code: 'INTERNAL_ERROR', reason: 'its workflow does not exist in Temporal (never started, or deleted after retention)' };
  }
  if (!['TERMINATED', 'TIMED_OUT', 'FAILED', 'CANCELLED'].includes(status)) return undefined;
  // The result of a closed run is its failure: a terminate's reason, a timeout, an error.
  const cause = await handle.result().then(
    () => undefined,
    (err: unknown) => (err instanceof WorkflowFailedError ? (err.cause?.message ?? err.message) : String(err)),
  );
  const said = cause ? `: ${cause}` : '';
  if (status === 'CANCELLED') return { status: 'cancelled', code: 'CANCELLED', reason: `its workflow was cancelled outside the service${said}` };
  const how = { TERMINATED: 'terminated', TIMED_OUT: 'timed out', FAILED: 'failed' }[status as 'TERMINATED' | 'TIMED_OUT' | 'FAILED'];
  return { status: 'failed', code: 'INTERNAL_ERROR', reason: `its workflow ${how} outside the service${said}` };
}

/**
 * One pass of the reconciler: takes the next unfinished jobs and, for each whose Temporal
 * workflow was terminated, timed out, failed or cancelled without our code recording it (from
 * the Temporal UI, a `temporal workflow terminate`, a run timeout), sets the job's final status
 * and error. Only jobs still `scraping` change, so a job its workflow finished meanwhile keeps
 * what the workflow wrote.
 */
export async function reconcileJobs(db: Db, temporal: Client, after?: ReconcileCursor): Promise<ReconcilePass> {
  const rows = await db
    .select({ id: jobs.id, kind: jobs.kind, createdAt: jobs.createdAt })
    .from(jobs)
    .where(
      and(
        eq(jobs.status, 'scraping'),
        after ? or(gt(jobs.createdAt, after.createdAt), and(eq(jobs.createdAt, after.createdAt), gt(jobs.id, after.id))) : undefined,
      ),
    )
    .orderBy(asc(jobs.createdAt), asc(jobs.id))
    .limit(BATCH);
  const ended: ReconcilePass['ended'] = [];
  for (let i = 0; i < rows.length; i += PARALLEL) {
    await Promise.all(
      rows.slice(i, i + PARALLEL).map(async (job) => {
        const verdict = await verdictOf(temporal, job);
        if (!verdict) return;
        const message = `The ${job.kind} job ended: ${verdict.reason}`;
        await endJobUnfinished(db, job.id, verdict.status, verdict.code, message);
        ended.push({ jobId: job.id, workflowId: workflowIdOf(job), status: verdict.status, reason: message });
      }),
    );
  }
  const last = rows.length === BATCH ? rows[rows.length - 1] : undefined;
  return { checked: rows.length, ended, ...(last && { next: { createdAt: last.createdAt, id: last.id } }) };
}
