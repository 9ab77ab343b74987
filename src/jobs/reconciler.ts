import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import { reconcileJobs, type ReconcileCursor } from './reconcile-jobs';

/** The running reconciler of a worker process. */
export interface Reconciler {
  /** Stops after the pass under way, if any. */
  stop(): Promise<void>;
}

/**
 * Runs reconcileJobs every `intervalMs` until stopped. Every worker on the HTTP queue runs one:
 * their updates only touch jobs still `scraping`, so two passes over the same job agree, and a
 * worker that is down leaves the work to the others.
 */
export function startReconciler(db: Db, temporal: Client, intervalMs: number, logger: Logger): Reconciler {
  const log = logger.child({ component: 'reconciler' });
  let cursor: ReconcileCursor | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const pass = async () => {
    try {
      const result = await reconcileJobs(db, temporal, cursor);
      cursor = result.next;
      for (const job of result.ended) log.warn(job, 'job reconciled with its workflow');
    } catch (err) {
      // Postgres or Temporal away: the next pass tries again.
      log.warn({ err }, 'reconcile pass failed');
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().finally(schedule);
    }, intervalMs);
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
