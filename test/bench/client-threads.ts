import path from 'node:path';
import { Piscina } from 'piscina';
import type { Answer } from './closed-loop';

/** What one client thread runs (client-thread.ts). */
export interface ClientThreadTask {
  apiUrl: string;
  key: string;
  /** The pages the clients scrape, in turn. */
  urls: string[];
  options: Record<string, unknown>;
  /** Clients in this thread. */
  clients: number;
  /** How long each client scrapes, one call after another; 0: one call each, all at once (a burst). */
  seconds: number;
  /** Clients call again at once when refused, as a flood does, instead of waiting `Retry-After`. */
  ignoreRetryAfter?: boolean;
}

export interface ClientThreadResult {
  /** `at` is on the process-wide clock: performance.timeOrigin + the thread's performance.now(). */
  answers: Answer[];
}

/** Time for every thread to be waiting when the clients start together. */
const START_DELAY_MS = 300;

/**
 * Scrape clients spread over `threads` worker threads, started together: a service's clients
 * are separate programs, and all of them on one event loop would add that loop's queue to every
 * answer. Each thread first makes one call, so that loading its modules and its fetch is not
 * timed.
 */
export async function clientsInThreads(threads: number, task: ClientThreadTask): Promise<{ answers: Answer[]; seconds: number }> {
  const pool = new Piscina<ClientThreadTask & { startAt: number; offset: number }, ClientThreadResult>({
    filename: path.join(__dirname, 'client-thread.ts'),
    // The bench runs under `node --import tsx`, which threads inherit.
    ...(!process.execArgv.includes('tsx') && { execArgv: [...process.execArgv, '--import', 'tsx'] }),
    minThreads: threads,
    maxThreads: threads,
  });
  try {
    const share = (i: number) => Math.floor(task.clients / threads) + (i < task.clients % threads ? 1 : 0);
    const used = Array.from({ length: threads }, (_, i) => i).filter((i) => share(i) > 0);
    // Each thread loads the module (compiling it) and its fetch (undici loads on first use) with
    // one call before the clocked run.
    await Promise.all(used.map(() => pool.run({ ...task, clients: 1, seconds: 0, startAt: 0, offset: 0 })));
    const startAt = Date.now() + START_DELAY_MS;
    const offsetOf = (i: number) => Math.floor((i * task.urls.length) / threads);
    const done = await Promise.all(used.map((i) => pool.run({ ...task, clients: share(i), startAt, offset: offsetOf(i) })));
    const seconds = (Date.now() - startAt) / 1000;
    return { answers: done.flatMap((d) => d.answers), seconds };
  } finally {
    await pool.destroy();
  }
}
