import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
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
/** How often each API replica re-reads the deployment-wide count. */
const RECOUNT_INTERVAL_MS = 200;

/**
 * Single-page jobs in flight across the deployment, at most `capacity` counted. A job counts
 * while the API may still wait for it (its `timeout` and the result grace): past that its client
 * has its answer and its workflow is cancelled, and a job whose workflow never started (Temporal
 * was down) must not hold a slot until it is reconciled.
 */
async function countInFlight(db: Db, capacity: number): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (
      select 1 from ${jobs}
      where ${jobs.status} = 'scraping' and ${jobs.kind} in ${SINGLE_PAGE_KINDS}
        and ${jobs.createdAt} > now() - (coalesce((${jobs.options}->>'timeout')::int, ${DEFAULT_TIMEOUT_MS}) + ${RESULT_GRACE_MS}) * interval '1 millisecond'
      limit ${capacity}
    ) in_flight`);
  return row?.n ?? 0;
}

/**
 * Backpressure for scrapes and screenshots: past `capacity` single-page jobs in flight across
 * the deployment, a new one would only queue behind the others, so it is refused with 503
 * SERVICE_UNAVAILABLE and `Retry-After`, which keeps accepted requests' latency bounded.
 *
 * The decision costs no I/O, so a refusal under overload is fast: each API replica re-reads
 * the deployment-wide count from Postgres every 200 ms in the background, and adds what it
 * admitted and subtracts what it finished since that read began. Other replicas' admissions
 * show up at the next read, and a burst may pass by what arrives within one read's span.
 */
export class ScrapeAdmission {
  /** Deployment-wide jobs in flight at the last read. */
  private counted = 0;
  /** Admitted and finished by this replica since the last read began. */
  private admitted = 0;
  private finished = 0;
  private reading = false;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    /** Single-page jobs the deployment takes at once; 0: no limit. */
    private readonly capacity: number,
    private readonly logger: Logger,
  ) {
    if (capacity <= 0) return;
    this.timer = setInterval(() => void this.recount(), RECOUNT_INTERVAL_MS);
    this.timer.unref();
    void this.recount();
  }

  /** Admits one single-page job or throws 503; call the returned function once it has ended. */
  admit(): () => void {
    if (this.capacity <= 0) return () => {};
    const inFlight = Math.max(0, this.counted + this.admitted - this.finished);
    if (inFlight >= this.capacity) {
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        `The workers are saturated: ${inFlight} scrapes in flight, the most this deployment takes; retry in ${RETRY_AFTER_SECONDS} s`,
        undefined,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
    this.admitted++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.finished++;
    };
  }

  /** Stops the background reads. */
  close(): void {
    clearInterval(this.timer);
  }

  private async recount(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    const admitted = this.admitted;
    const finished = this.finished;
    try {
      this.counted = await countInFlight(this.db, this.capacity);
      // What happened before the read began is in the count now.
      this.admitted -= admitted;
      this.finished -= finished;
    } catch (err) {
      // Postgres is down: the request's own statements answer 503 meanwhile; keep the last count.
      this.logger.debug({ err }, 'could not count the scrapes in flight');
    } finally {
      this.reading = false;
    }
  }
}
