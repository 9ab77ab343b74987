import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowExecutionAlreadyStartedError, type WorkflowStartOptions } from '@temporalio/client';
import { Counter } from 'prom-client';
import { scrapeWorkflow } from '../../workflows';
import { METRIC_PREFIX, metrics } from '../metrics/registry';
import type { ApiDeps } from './api-deps';

/**
 * How long an eager start may take before the scrape is also started through the task queue. A
 * start is one round trip to Temporal; the SDK core would retry an unreachable server for about
 * 10 s, which is no answer for a waiting client. A server that is only slow (loaded) answers
 * the eager start too, and whichever start answers first decides.
 */
const EAGER_START_MS = 2_000;
/** After an eager start failed, scrapes go through the queue for this long before eager is tried again. */
const EAGER_PAUSE_MS = 5_000;

const scrapeStarts = new Counter({
  name: `${METRIC_PREFIX}scrape_starts_total`,
  help: "Scrape workflows this API started, by whether Temporal handed the first task to the API's own scrape worker (eager) or to the queue.",
  labelNames: ['eager'] as const,
  registers: [metrics],
});

let eagerPausedUntil = 0;

type ScrapeStart = WorkflowStartOptions<typeof scrapeWorkflow>;

/**
 * Starts a scrape workflow on the scrape queue: eagerly, on this process's own scrape worker,
 * when it runs (api-scrape-worker.ts); through the queue otherwise, or when the eager start
 * fails, with the API's usual client (whose retries answer 503 promptly in an outage). An eager
 * start that is slow (EAGER_START_MS) is raced by a start through the queue: the same workflow
 * ID names one run only, so the later of the two finds that run instead of starting another.
 * A slow start is not taken for an outage: under load every start is slow, and sending scrapes
 * through the queue then would only add matching's work to a busy server. Answers whether
 * Temporal handed the first task to this process's worker (false when that is not known).
 */
export async function startScrapeWorkflow(deps: ApiDeps, options: ScrapeStart): Promise<boolean> {
  const once: ScrapeStart = { ...options, workflowIdReusePolicy: 'REJECT_DUPLICATE', workflowIdConflictPolicy: 'USE_EXISTING' };
  const eager = Date.now() >= eagerPausedUntil ? deps.scrapeWorker?.eagerClient : undefined;
  const eagerly = eager ? await raceEagerStart(deps, once, eager.workflow.start(scrapeWorkflow, { ...once, requestEagerStart: true })) : await startThroughQueue(deps, once, false);
  scrapeStarts.inc({ eager: String(eagerly) });
  return eagerly;
}

async function raceEagerStart(deps: ApiDeps, once: ScrapeStart, started: Promise<{ eagerlyStarted: boolean }>): Promise<boolean> {
  const eagerStart = started.then(
    (handle) => handle.eagerlyStarted,
    (err: unknown) => {
      eagerPausedUntil = Date.now() + EAGER_PAUSE_MS;
      deps.logger.warn({ err, workflowId: once.workflowId, pauseMs: EAGER_PAUSE_MS }, 'eager scrape start failed; scrapes go through the task queue for a while');
      return undefined;
    },
  );
  const slow = new AbortController();
  try {
    const early = await Promise.race([eagerStart, sleep(EAGER_START_MS, 'slow' as const, { signal: slow.signal })]);
    if (typeof early === 'boolean') return early;
    const queued = startThroughQueue(deps, once, true);
    // A failed eager start leaves the answer to the queue's start; so does a slower one.
    return await Promise.race([eagerStart.then((eagerly) => eagerly ?? queued), queued]);
  } finally {
    slow.abort();
  }
}

/** Starts through the queue with the API's usual client; `raced` when an eager start of the same run may have been made. */
async function startThroughQueue(deps: ApiDeps, once: ScrapeStart, raced: boolean): Promise<false> {
  try {
    await deps.temporal.workflow.start(scrapeWorkflow, once);
  } catch (err) {
    // Only a start that raced an eager one can find its run already closed.
    if (!(raced && err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return false;
}
