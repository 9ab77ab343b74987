import { WorkflowExecutionAlreadyStartedError, type WorkflowStartOptions } from '@temporalio/client';
import { scrapeWorkflow } from '../../workflows';
import type { ApiDeps } from './api-deps';

/**
 * Longest an eager start may take before the scrape is started through the task queue instead.
 * A start is one round trip to Temporal; this long means the API's own connection is in trouble.
 */
const EAGER_START_MS = 2_000;

/**
 * Starts a scrape workflow on the scrape queue: eagerly, on this process's own scrape worker,
 * when it runs (api-scrape-worker.ts); through the queue otherwise, or when the eager start
 * fails, with the API's usual client (whose retries answer 503 promptly in an outage). Should
 * the failed eager start have started the workflow after all, the second start finds it by its
 * ID, and that is the scrape.
 */
export async function startScrapeWorkflow(deps: ApiDeps, options: WorkflowStartOptions<typeof scrapeWorkflow>): Promise<void> {
  const eager = deps.scrapeWorker?.eagerClient;
  if (eager) {
    try {
      await eager.connection.withDeadline(Date.now() + EAGER_START_MS, () => eager.workflow.start(scrapeWorkflow, { ...options, requestEagerStart: true }));
      return;
    } catch (err) {
      deps.logger.warn({ err, workflowId: options.workflowId }, 'eager scrape start failed; starting it through the task queue');
    }
  }
  try {
    await deps.temporal.workflow.start(scrapeWorkflow, options);
  } catch (err) {
    if (!(eager && err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
