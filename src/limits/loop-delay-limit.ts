import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { Gauge, Histogram } from 'prom-client';
import { METRIC_PREFIX, metrics } from '../metrics/registry';
import { LoopStallTimer } from './loop-stall-timer';

/** How often the limit is recalibrated. */
export const LIMIT_WINDOW_MS = 250;
/** What a late window multiplies the limit by. */
const BACKOFF = 0.75;

const limitGauge = new Gauge({
  name: `${METRIC_PREFIX}scrape_replica_limit`,
  help: "Scrapes and screenshots this API replica takes at once now: its adaptive limit, lowered while its event loop runs late or busy (SCRAPE_LOOP_DELAY_MS, SCRAPE_LOOP_BUSY_PERCENT); 0 when MAX_SCRAPES_IN_FLIGHT is 0 (no limit).",
  registers: [metrics],
});

const stallHistogram = new Histogram({
  name: `${METRIC_PREFIX}scrape_replica_loop_stall_seconds`,
  help: `This API replica's longest event-loop stall in each ${LIMIT_WINDOW_MS} ms window, as its adaptive scrape limit times it (unlike nodejs_eventloop_lag_*, it sees stalls inside timer callbacks).`,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metrics],
});

export interface LoopDelayLimitOptions {
  /** The most the limit may grow to: the deployment-wide capacity. */
  max: number;
  /** Event-loop delay, in ms, past which a window counts as overloaded; 0: not this signal. */
  targetDelayMs: number;
  /** Share of a window, in percent, the event loop may spend busy before the window counts as overloaded; 0 (or 100): not this signal. */
  targetBusyPercent: number;
  /**
   * The scrapes the replica holds now. An overloaded window cuts the limit only while it holds
   * some: a loop busy with other work (starting up, say) is not eased by refusing scrapes, and
   * a limit cut then would refuse the first ones to come for seconds.
   */
  holding: () => number;
}

/**
 * An adaptive cap on the scrapes one API replica holds at once, set by how late its own event
 * loop runs. A replica that starts scrapes eagerly runs their fetch and storage on its main
 * thread, beside the HTTP handling; past what that thread keeps up with, every request waits
 * for it, refusals included (at 128 clients on 2 cores a third-of-a-second stall held up every
 * request that arrived in it). So, as TCP's congestion window and Netflix's concurrency-limits
 * do (AIMD): every 250 ms, a window whose loop ran later than the target, or was busy for more
 * of the window than its target, cuts the limit by a quarter, and any other window in which the
 * limit turned requests away raises it by one. Busy counts as well as late: a loop that never
 * stalls long but is never idle either makes each request wait behind all the others' work (at
 * 128 clients on 2 cores, past the clients' first second, a refusal took 17-26 ms at p50 and
 * 93-165 ms at p99 with stalls under 60 ms; kept at most 85% busy, 7-9 ms and 36-47 ms).
 * The deployment-wide count (MAX_SCRAPES_IN_FLIGHT) stays the ceiling.
 *
 * The lateness is timed by a LoopStallTimer, which sees stalls Node's own histogram misses.
 */
export class LoopDelayLimit {
  private limit: number;
  private bound = false;
  private readonly stalls: LoopStallTimer | undefined;
  /** Node's count of the loop's busy and idle time when the current window began. */
  private busy: EventLoopUtilization | undefined;

  constructor(private readonly options: LoopDelayLimitOptions) {
    this.limit = options.max;
    limitGauge.set(this.limit);
    if (options.targetDelayMs <= 0 && options.targetBusyPercent <= 0) return;
    this.busy = performance.eventLoopUtilization();
    this.stalls = new LoopStallTimer(LIMIT_WINDOW_MS, (lateMs) => this.calibrate(lateMs));
  }

  /** Scrapes this replica may hold now. */
  get current(): number {
    return this.limit;
  }

  /** Says a request was turned away by this limit: the next on-time window may raise it. */
  noteBinding(): void {
    this.bound = true;
  }

  close(): void {
    this.stalls?.stop();
  }

  private calibrate(lateMs: number): void {
    stallHistogram.observe(lateMs / 1000);
    const { targetDelayMs, targetBusyPercent, holding } = this.options;
    const now = performance.eventLoopUtilization();
    const busyPercent = 100 * performance.eventLoopUtilization(now, this.busy).utilization;
    this.busy = now;
    const overloaded = (targetDelayMs > 0 && lateMs > targetDelayMs) || (targetBusyPercent > 0 && busyPercent > targetBusyPercent);
    if (overloaded && holding() > 0) this.limit = Math.max(1, Math.floor(this.limit * BACKOFF));
    else if (this.bound) this.limit = Math.min(this.options.max, this.limit + 1);
    this.bound = false;
    limitGauge.set(this.limit);
  }
}
