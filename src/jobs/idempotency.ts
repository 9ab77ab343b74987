import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs } from '../db/schema';
import { AppError } from '../errors';
import type { JobRow } from './job-store';

/** A stable hash of a request body: same fields, same values, whatever their order. */
export function requestHash(body: unknown): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([, v]) => v !== undefined)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, v]) => [k, canonical(v)]),
          )
        : value;
  return createHash('sha256').update(JSON.stringify(canonical(body))).digest('hex');
}

/**
 * The job an earlier request with this `x-idempotency-key` created, if any. The same key with a
 * different body is a conflict, not a new job.
 */
export async function findIdempotentJob(db: Db, teamId: string, key: string, hash: string): Promise<JobRow | undefined> {
  const [job] = await db.select().from(jobs).where(and(eq(jobs.teamId, teamId), eq(jobs.idempotencyKey, key)));
  if (job && job.requestHash !== hash) {
    throw new AppError('IDEMPOTENCY_CONFLICT', `x-idempotency-key "${key}" was already used with a different request body`);
  }
  return job;
}
