import { setTimeout as sleep } from 'node:timers/promises';
import { NativeConnection, TransportError } from '@temporalio/worker';
import type { Logger } from 'pino';
import { dependencyOutage } from './dependency-outage';
import { migrateDatabase } from '../db/migrate';
import { serializeError, type LoggedError } from '../log-errors';

/** Wait after the first failed attempt; doubles with each one after. */
const INITIAL_DELAY_MS = 250;
/** Longest wait between attempts: how late, at worst, a dependency that came back is noticed. */
const MAX_DELAY_MS = 5_000;

/**
 * Runs `attempt` until it succeeds, waiting with capped exponential backoff after each failure
 * that `isOutage` says is the dependency being unreachable, and logging one line per such
 * failure. Any other failure (a wrong password, a failed migration) is thrown at once: waiting
 * cannot fix it, and a process that exits for it lets its supervisor see the crash loop.
 */
async function waitFor<T>(dependency: string, attempt: () => Promise<T>, isOutage: (err: unknown) => boolean, logger: Logger): Promise<T> {
  let delay = INITIAL_DELAY_MS;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isOutage(err)) throw err;
      const { code, message } = serializeError(err) as LoggedError;
      logger.warn({ dependency, attempt: n, code, message, retryInMs: delay }, `waiting for ${dependency}`);
    }
    await sleep(delay);
    delay = Math.min(MAX_DELAY_MS, delay * 2);
  }
}

const isUnreachable = (err: unknown) => dependencyOutage(err) !== undefined;

/**
 * Applies the migrations once Postgres accepts connections. Both entry points do this first: a
 * process (re)started during a Postgres outage waits here instead of exiting.
 */
export async function migrateWhenPostgresIsUp(databaseUrl: string, logger: Logger): Promise<void> {
  await waitFor('Postgres', () => migrateDatabase(databaseUrl), isUnreachable, logger);
}

/** The worker's Temporal connection, once the frontend accepts one (the core SDK's connect fails with a TransportError until then). */
export async function connectWhenTemporalIsUp(address: string, logger: Logger): Promise<NativeConnection> {
  return waitFor('Temporal', () => NativeConnection.connect({ address }), (err) => err instanceof TransportError || isUnreachable(err), logger);
}
