import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import { repeatEvery, type Repeating } from '../runtime/repeat-every';
import { reconcileJobs, type ReconcileCursor } from './reconcile-jobs';

/**
 * Runs reconcileJobs every `intervalMs` until stopped. Every worker on the HTTP queue runs one:
 * their updates only touch jobs still `scraping`, so two passes over the same job agree, and a
 * worker that is down leaves the work to the others.
 */
export function startReconciler(db: Db, temporal: Client, intervalMs: number, logger: Logger): Repeating {
  const log = logger.child({ component: 'reconciler' });
  let cursor: ReconcileCursor | undefined;
  return repeatEvery(intervalMs, async () => {
    try {
      const result = await reconcileJobs(db, temporal, cursor);
      cursor = result.next;
      for (const job of result.ended) log.warn(job, 'job reconciled with its workflow');
    } catch (err) {
      // Postgres or Temporal away: the next pass tries again.
      log.warn({ err }, 'reconcile pass failed');
    }
  });
}
