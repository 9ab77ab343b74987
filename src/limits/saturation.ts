import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs, type JobKind } from '../db/schema';
import { AppError } from '../errors';
import { RESULT_GRACE_MS } from '../temporal/await-result';

/** Jobs a client waits on whose work is one page: the work saturation counts. */
const SINGLE_PAGE_KINDS: JobKind[] = ['scrape', 'screenshot'];
/** A job's `timeout` when its options name none (the scrape default). */
const DEFAULT_TIMEOUT_MS = 30_000;
/** What a refused client is told to wait: at capacity, a slot frees up about every second or sooner. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Refuses new single-page work with 503 SERVICE_UNAVAILABLE and `Retry-After` while
 * `capacity` such jobs are in flight across the deployment: Postgres counts them, so every API
 * replica sees the same number, and a request costs one small indexed count. Past capacity
 * a new scrape would only queue behind the others; refusing it keeps accepted scrapes' latency
 * bounded. A job counts while the API may still wait for it (its `timeout` and the result
 * grace): past that its client has its answer and its workflow is cancelled, and a job whose
 * workflow never started (Temporal was down) must not hold a slot until it is reconciled. The
 * check is not atomic with the job's creation, so a burst may pass it by the requests checked
 * at the same instant.
 */
export async function refuseWhenSaturated(db: Db, capacity: number): Promise<void> {
  if (capacity <= 0) return;
  const [row] = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (
      select 1 from ${jobs}
      where ${jobs.status} = 'scraping' and ${jobs.kind} in ${SINGLE_PAGE_KINDS}
        and ${jobs.createdAt} > now() - (coalesce((${jobs.options}->>'timeout')::int, ${DEFAULT_TIMEOUT_MS}) + ${RESULT_GRACE_MS}) * interval '1 millisecond'
      limit ${capacity}
    ) in_flight`);
  const inFlight = row?.n ?? 0;
  if (inFlight >= capacity) {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      `The workers are saturated: ${inFlight} scrapes in flight, the most this deployment takes; retry in ${RETRY_AFTER_SECONDS} s`,
      undefined,
      { retryAfterSeconds: RETRY_AFTER_SECONDS },
    );
  }
}
