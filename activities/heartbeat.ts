import { Context } from '@temporalio/activity';

/**
 * Heartbeats on a timer while `fn` runs, so a worker that dies mid-activity is noticed within
 * the heartbeat timeout instead of the start-to-close timeout. `details` is the progress to
 * report (and to resume from), read at each beat.
 */
export async function withHeartbeat<T>(fn: () => Promise<T>, details: () => unknown = () => undefined, everyMs = 2_000): Promise<T> {
  const context = Context.current();
  context.heartbeat(details());
  const timer = setInterval(() => context.heartbeat(details()), everyMs);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}
