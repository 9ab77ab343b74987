import { eq } from 'drizzle-orm';
import { charge } from '../credits/ledger';
import type { Db } from '../db/client';
import { jobs } from '../db/schema';

/**
 * Stores a job's small result (a map's links, an extract's data), completes the job and
 * charges for it, in one transaction; a second call for the same job charges nothing more.
 */
export async function storeJobResult(db: Db, job: { id: string; teamId: string; kind: string }, result: unknown, credits: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(jobs).set({ result, status: 'completed', finishedAt: new Date() }).where(eq(jobs.id, job.id));
    await charge(tx, { teamId: job.teamId, amount: credits, operation: job.kind, jobId: job.id, idempotencyKey: `${job.kind}:${job.id}` });
  });
}
