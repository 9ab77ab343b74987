import type { Priority } from '@temporalio/common';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { AuthenticatedTeam } from '../accounts/api-keys';
import type { Db } from '../db/client';
import { jobs, type JobKind } from '../db/schema';
import { AppError } from '../errors';
import { RESULT_GRACE_MS } from '../temporal/await-result';
import type { QueueBacklog } from '../temporal/queue-backlog';
import { singlePageBudgetMs } from '../scrape/page-budget';
import { FinishRate } from './finish-rate';
import { teamPriority } from './team-priority';

/** Jobs a client waits on whose work is one page: what the queue bound counts. */
const SINGLE_PAGE_KINDS: JobKind[] = ['scrape', 'screenshot'];
/** A job's `timeout` when its options name none (the scrape default). */
const DEFAULT_TIMEOUT_MS = 30_000;
/** How often each API replica re-reads the deployment-wide count. */
const RECOUNT_INTERVAL_MS = 200;
/** Longest Retry-After a refusal names. */
const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * Single-page jobs not yet finished, by team: queued in Temporal or running. A job counts while
 * its workflow may still run (its page budget and the result grace); a job whose workflow never
 * started (Temporal was down) must not count until it is reconciled.
 */
async function readInFlight(db: Db): Promise<Map<string, number>> {
  const budget = sql`greatest(coalesce((${jobs.options}->>'timeout')::int, ${DEFAULT_TIMEOUT_MS}), ${singlePageBudgetMs(0)})`;
  const rows = await db.execute<{ team: string; n: number }>(sql`
    select ${jobs.teamId} as team, count(*)::int as n from ${jobs}
    where ${jobs.status} = 'scraping' and ${jobs.kind} in ${SINGLE_PAGE_KINDS}
      and ${jobs.createdAt} > now() - (${budget} + ${RESULT_GRACE_MS}) * interval '1 millisecond'
    group by ${jobs.teamId}`);
  return new Map(rows.map((r) => [r.team, Number(r.n)]));
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

/** One request's place among the single-page jobs (ScrapeAdmission.enter). */
export interface AdmissionTicket {
  /**
   * Makes the place the team's and returns the priority its workflow starts with; throws 429
   * RATE_LIMITED when the team is at its operator-set limit, 503 when the scrape queue's wait
   * already passes `timeoutMs`.
   */
  admit(team: AuthenticatedTeam, timeoutMs: number): Priority;
  /** Gives the place back; once the request has ended (later calls do nothing). */
  leave(): void;
}

const seconds = (ms: number) => Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(ms / 1000)));

/**
 * Admission of scrapes and screenshots, work a client waits on. Temporal's scrape task queue is
 * the queue: a request is accepted and its workflow waits its turn there, its team the fairness
 * key (teamPriority). What is refused, with a `Retry-After` from what was measured:
 *
 * - past MAX_QUEUED_SCRAPES accepted and unfinished across the deployment (the bound of the
 *   queue): 503, Retry-After the time this replica takes to finish the excess at its rate;
 * - a team at the pagesInFlight an operator set for it (`wcs limits`): 429;
 * - when the scrape queue's oldest task has waited longer than the request's `timeout`, so the
 *   request would time out in the line: 503, Retry-After that wait.
 *
 * Nothing here holds fewer than the workers serve: the counts are of work, read from Postgres
 * every 200 ms in the background plus what this replica admitted and finished since, and they go
 * back down by themselves as work finishes. The bound is checked before the request is
 * authenticated (`enter`), so a refusal under a flood costs no database query.
 */
export class ScrapeAdmission {
  private readByTeam = new Map<string, number>();
  private readTotal = 0;
  private admitted = new Tally();
  private finished = new Tally();
  /** Requests of this replica holding a place before they are authenticated: in no count yet. */
  private entered = 0;
  private reading = false;
  private readonly timer: NodeJS.Timeout;
  private readonly rate = new FinishRate();

  constructor(
    private readonly db: Db,
    /** Accepted single-page jobs the deployment holds before refusing (MAX_QUEUED_SCRAPES); 0: no bound. */
    private readonly maxQueued: number,
    /** The scrape queue's backlog, read from Temporal. */
    private readonly backlog: QueueBacklog,
    /** TEAM_PAGES_IN_FLIGHT, which a team's operator-set limit is weighed against. */
    private readonly defaultPagesInFlight: number,
    private readonly logger: Logger,
  ) {
    this.timer = setInterval(() => void this.recount(), RECOUNT_INTERVAL_MS);
    this.timer.unref();
    void this.recount();
  }

  /** Accepted and unfinished single-page jobs across the deployment, as this replica knows them. */
  get queued(): number {
    return Math.max(0, this.readTotal + this.admitted.total - this.finished.total) + this.entered;
  }

  /**
   * Takes a place for one request, or throws 503 while the queue is at its bound. Needs no team,
   * so a route calls it before it authenticates. The caller must `leave` the ticket once the
   * request has ended, whatever happened.
   */
  enter(): AdmissionTicket {
    const { queued, maxQueued } = this;
    if (maxQueued > 0 && queued >= maxQueued) {
      const retryAfterSeconds = seconds(((queued - maxQueued + 1) / this.rate.perSecond()) * 1000);
      throw new AppError('SERVICE_UNAVAILABLE', `The scrape queue is full (${queued} accepted and not finished); retry in ${retryAfterSeconds} s`, undefined, { retryAfterSeconds });
    }
    this.entered += 1;
    let team: string | undefined;
    let left = false;
    return {
      admit: (who, timeoutMs) => {
        this.refuseOverTeamLimit(who);
        const wait = this.backlog.current.ageMs;
        if (wait > timeoutMs) {
          const retryAfterSeconds = seconds(wait);
          throw new AppError('SERVICE_UNAVAILABLE', `Scrapes wait ${Math.round(wait / 1000)} s for a worker, longer than this request's timeout; retry in ${retryAfterSeconds} s`, undefined, {
            retryAfterSeconds,
          });
        }
        this.entered -= 1;
        this.admitted.add(who.teamId, 1);
        team = who.teamId;
        return teamPriority(who, this.defaultPagesInFlight);
      },
      leave: () => {
        if (left) return;
        left = true;
        if (team === undefined) this.entered -= 1;
        else {
          this.finished.add(team, 1);
          this.rate.note();
        }
      },
    };
  }

  /** Throws 429 when the team has an operator's pagesInFlight and is at it. */
  private refuseOverTeamLimit(team: AuthenticatedTeam): void {
    const limit = team.pagesInFlight;
    if (limit === undefined) return;
    const { teamId } = team;
    const inFlight = Math.max(0, (this.readByTeam.get(teamId) ?? 0) + (this.admitted.byTeam.get(teamId) ?? 0) - (this.finished.byTeam.get(teamId) ?? 0));
    if (inFlight < limit) return;
    // One of its own finishes about every (rate's interval × its share of the work).
    const retryAfterSeconds = seconds(1000 / Math.max(this.rate.perSecond() * (inFlight / Math.max(1, this.queued)), 1e-3));
    throw new AppError('RATE_LIMITED', `This team has ${inFlight} scrapes in flight, the most it may have at once; retry in ${retryAfterSeconds} s`, undefined, { retryAfterSeconds });
  }

  /**
   * What a client told its scrape continues (408) should wait before asking again: the scrape
   * queue's current wait, and at least the 5 s firecrawl-js waits anyway.
   */
  continuingRetryAfterSeconds(): number {
    return Math.max(5, seconds(this.backlog.current.ageMs));
  }

  /** Stops the background reads. */
  close(): void {
    clearInterval(this.timer);
    this.backlog.close();
  }

  private async recount(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    const admitted = this.admitted.copy();
    const finished = this.finished.copy();
    try {
      this.readByTeam = await readInFlight(this.db);
      this.readTotal = [...this.readByTeam.values()].reduce((a, b) => a + b, 0);
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
