import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowExecutionAlreadyStartedError, type WorkflowStartOptions } from '@temporalio/client';
import { Counter } from 'prom-client';
import { scrapeWorkflow } from '../../workflows';
import { METRIC_PREFIX, metrics } from '../metrics/registry';
import type { ApiDeps } from './api-deps';

/**
 * Longest an eager start may take before the scrape is started through the task queue instead.
 * A start is one round trip to Temporal; the SDK core would retry an unreachable server for about
 * 10 s, which is no answer for a waiting client.
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

/**
 * Starts a scrape workflow on the scrape queue: eagerly, on this process's own scrape worker,
 * when it runs (api-scrape-worker.ts); through the queue otherwise, or when the eager start
 * fails or takes too long, with the API's usual client (whose retries answer 503 promptly in an
 * outage). A workflow ID names one run only: should the eager start have started it after all,
 * the second start finds that run (running or closed) instead of starting another.
 */
export async function startScrapeWorkflow(deps: ApiDeps, options: WorkflowStartOptions<typeof scrapeWorkflow>): Promise<void> {
  const once: WorkflowStartOptions<typeof scrapeWorkflow> = { ...options, workflowIdReusePolicy: 'REJECT_DUPLICATE', workflowIdConflictPolicy: 'USE_EXISTING' };
  const eager = Date.now() >= eagerPausedUntil ? deps.scrapeWorker?.eagerClient : undefined;
  if (eager) {
    const gaveUp = new AbortController();
    const started = eager.workflow.start(scrapeWorkflow, { ...once, requestEagerStart: true });
    started.catch(() => undefined); // when the timer wins, the start's own outcome is not waited for
    try {
      const handle = await Promise.race([
        started,
        sleep(EAGER_START_MS, undefined, { signal: gaveUp.signal }).then(() => {
          throw new Error(`no answer in ${EAGER_START_MS} ms`);
        }),
      ]);
      scrapeStarts.inc({ eager: String(handle.eagerlyStarted) });
      return;
    } catch (err) {
      eagerPausedUntil = Date.now() + EAGER_PAUSE_MS;
      deps.logger.warn({ err, workflowId: options.workflowId, pauseMs: EAGER_PAUSE_MS }, 'eager scrape start failed; scrapes go through the task queue for a while');
    } finally {
      gaveUp.abort();
    }
  }
  try {
    await deps.temporal.workflow.start(scrapeWorkflow, once);
  } catch (err) {
    // Only a start that raced a failed eager one can find its run already closed.
    if (!(eager && err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  scrapeStarts.inc({ eager: 'false' });
}
