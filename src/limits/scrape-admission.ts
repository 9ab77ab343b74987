import { isNotNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import { jobs, teamLimits, type JobKind } from '../db/schema';
import { AppError } from '../errors';
import { RESULT_GRACE_MS } from '../temporal/await-result';
import { LoopDelayLimit, type LoopDelayLimitOptions } from './loop-delay-limit';

/** Jobs a client waits on whose work is one page: the work saturation counts. */
const SINGLE_PAGE_KINDS: JobKind[] = ['scrape', 'screenshot'];
/** A job's `timeout` when its options name none (the scrape default). */
const DEFAULT_TIMEOUT_MS = 30_000;
/** What a refused client is told to wait: at capacity, a slot frees up about every second or sooner. */
const RETRY_AFTER_SECONDS = 1;
/** How often each API replica re-reads the deployment-wide count. */
const RECOUNT_INTERVAL_MS = 200;

/** Where single-page work stands across the deployment, as one read saw it. */
interface InFlight {
  /** Single-page jobs in flight, by team. */
  byTeam: Map<string, number>;
  /** Teams an operator gave a `pagesInFlight` (`wcs limits`): their scrapes are held to it too. */
  teamLimits: Map<string, number>;
}

/**
 * Single-page jobs in flight, by team. A job counts while the API may still wait for it (its
 * `timeout` and the result grace): past that its client has its answer and its workflow is
 * cancelled, and a job whose workflow never started (Temporal was down) must not hold a slot
 * until it is reconciled. Admission keeps the rows few, so they are all counted.
 */
async function readInFlight(db: Db): Promise<InFlight> {
  const [jobRows, limitRows] = await Promise.all([
    db.execute<{ team: string; n: number }>(sql`
      select ${jobs.teamId} as team, count(*)::int as n from ${jobs}
      where ${jobs.status} = 'scraping' and ${jobs.kind} in ${SINGLE_PAGE_KINDS}
        and ${jobs.createdAt} > now() - (coalesce((${jobs.options}->>'timeout')::int, ${DEFAULT_TIMEOUT_MS}) + ${RESULT_GRACE_MS}) * interval '1 millisecond'
      group by ${jobs.teamId}`),
    db.select({ team: teamLimits.teamId, n: teamLimits.pagesInFlight }).from(teamLimits).where(isNotNull(teamLimits.pagesInFlight)),
  ]);
  return {
    byTeam: new Map(jobRows.map((r) => [r.team, Number(r.n)])),
    teamLimits: new Map(limitRows.map((r) => [r.team, r.n!])),
  };
}

/** A counter of what this replica admitted and finished since the last read began, by team. */
class Tally {
  readonly byTeam = new Map<string, number>();
  total = 0;

  add(teamId: string, n: number): void {
    this.total += n;
    const left = (this.byTeam.get(teamId) ?? 0) + n;
    if (left === 0) this.byTeam.delete(teamId);
    else this.byTeam.set(teamId, left);
  }

  /** Takes out what `earlier` held: it is in the count now. */
  subtract(earlier: Tally): void {
    for (const [team, n] of earlier.byTeam) this.add(team, -n);
  }

  copy(): Tally {
    const c = new Tally();
    for (const [team, n] of this.byTeam) c.add(team, n);
    return c;
  }
}

/** One request's place among the single-page jobs in flight (ScrapeAdmission.enter). */
export interface AdmissionTicket {
  /** Makes the place the team's, or throws 429 RATE_LIMITED when the team is at its own limit. */
  admit(teamId: string): void;
  /** Gives the place back; once the request has ended (later calls do nothing). */
  leave(): void;
}

/**
 * Backpressure and fairness for scrapes and screenshots, work a client waits on.
 *
 * - Past `capacity` single-page jobs in flight across the deployment, a new one would only queue
 *   behind the others, so it is refused with 503 SERVICE_UNAVAILABLE and `Retry-After`, which
 *   keeps accepted requests' latency bounded.
 * - A team whose `pagesInFlight` an operator set (`wcs limits`) is held to it: past it, its new
 *   one is refused with 429 RATE_LIMITED and `Retry-After`, so its bursts cannot take every slot
 *   from the others. Without an override a team may use the whole capacity, as a single-tenant
 *   deployment expects (TEAM_PAGES_IN_FLIGHT paces crawls and batches, which queue instead).
 * - Each replica also holds an adaptive number of them (LoopDelayLimit): fewer while its own
 *   event loop runs late, since every request it serves, refusals included, waits for that loop.
 *
 * The decision costs no I/O, so a refusal under overload is fast: each API replica re-reads the
 * counts from Postgres every 200 ms in the background, and adds what it admitted and subtracts
 * what it finished since that read began. Other replicas' admissions show up at the next read,
 * and a burst may pass by what arrives within one read's span.
 *
 * A request takes its place before it is authenticated (`enter`) and becomes its team's once
 * it is (`AdmissionTicket.admit`). Places are held from the start, so a burst that arrives when
 * a slot frees up gets one request through and every other refused at once, instead of all of
 * them waiting for their key and rate-limit queries only to be refused after.
 */
export class ScrapeAdmission {
  private read: InFlight = { byTeam: new Map(), teamLimits: new Map() };
  private readTotal = 0;
  private admitted = new Tally();
  private finished = new Tally();
  /** Requests of this replica holding a place before they are authenticated: in no count yet. */
  private entered = 0;
  /** Requests of this replica holding a place, authenticated or not. */
  private held = 0;
  private reading = false;
  private readonly timer: NodeJS.Timeout;
  private readonly replicaLimit: LoopDelayLimit;

  constructor(
    private readonly db: Db,
    /** Single-page jobs the deployment takes at once (MAX_SCRAPES_IN_FLIGHT); 0: no limit. */
    private readonly capacity: number,
    /** This replica's event-loop targets past which it holds fewer (SCRAPE_LOOP_DELAY_MS, SCRAPE_LOOP_BUSY_PERCENT); both 0: only `capacity` counts. */
    loopTargets: Pick<LoopDelayLimitOptions, 'targetDelayMs' | 'targetBusyPercent'>,
    private readonly logger: Logger,
  ) {
    const holding = () => this.held;
    this.replicaLimit = new LoopDelayLimit(capacity > 0 ? { max: capacity, ...loopTargets, holding } : { max: 0, targetDelayMs: 0, targetBusyPercent: 0, holding });
    this.timer = setInterval(() => void this.recount(), RECOUNT_INTERVAL_MS);
    this.timer.unref();
    void this.recount();
  }

  /**
   * Takes a place for one request, or throws 503 while the deployment is saturated. Needs no
   * team, so a route calls it before it authenticates: a refusal under overload then costs no
   * database query. Its message tells an unauthenticated caller nothing about the deployment's
   * load. The caller must `leave` the ticket once the request has ended, whatever happened.
   */
  enter(): AdmissionTicket {
    const { capacity } = this;
    const inFlight = Math.max(0, this.readTotal + this.admitted.total - this.finished.total) + this.entered;
    if (capacity > 0 && inFlight >= capacity) {
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        `The workers are saturated: this deployment takes no more scrapes or screenshots at the moment; retry in ${RETRY_AFTER_SECONDS} s`,
        undefined,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
    if (capacity > 0 && this.held >= this.replicaLimit.current) {
      this.replicaLimit.noteBinding();
      throw new AppError('SERVICE_UNAVAILABLE', `This API replica is saturated: it takes no more scrapes or screenshots at the moment; retry in ${RETRY_AFTER_SECONDS} s`, undefined, {
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
    }
    this.entered += 1;
    this.held += 1;
    let team: string | undefined;
    let left = false;
    return {
      admit: (teamId) => {
        this.refuseOverTeamLimit(teamId);
        this.entered -= 1;
        this.admitted.add(teamId, 1);
        team = teamId;
      },
      leave: () => {
        if (left) return;
        left = true;
        this.held -= 1;
        if (team === undefined) this.entered -= 1;
        else this.finished.add(team, 1);
      },
    };
  }

  /** Throws 429 when `teamId` has an operator's `pagesInFlight` and is at it. */
  private refuseOverTeamLimit(teamId: string): void {
    const teamLimit = this.read.teamLimits.get(teamId);
    const teamInFlight = Math.max(0, (this.read.byTeam.get(teamId) ?? 0) + (this.admitted.byTeam.get(teamId) ?? 0) - (this.finished.byTeam.get(teamId) ?? 0));
    if (teamLimit !== undefined && teamInFlight >= teamLimit) {
      throw new AppError(
        'RATE_LIMITED',
        `This team has ${teamInFlight} scrapes in flight, the most it may have at once; retry in ${RETRY_AFTER_SECONDS} s`,
        undefined,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
  }

  /** Stops the background reads. */
  close(): void {
    clearInterval(this.timer);
    this.replicaLimit.close();
  }

  private async recount(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    const admitted = this.admitted.copy();
    const finished = this.finished.copy();
    try {
      this.read = await readInFlight(this.db);
      this.readTotal = [...this.read.byTeam.values()].reduce((a, b) => a + b, 0);
      // What happened before the read began is in the count now.
      this.admitted.subtract(admitted);
      this.finished.subtract(finished);
    } catch (err) {
      // Postgres is down: the request's own statements answer 503 meanwhile; keep the last count.
      this.logger.debug({ err }, 'could not count the scrapes in flight');
    } finally {
      this.reading = false;
    }
  }
}
