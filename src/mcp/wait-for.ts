import { setTimeout as sleep } from 'node:timers/promises';

// Each poll is an API request counted against the key's rate limit; once a second is plenty.
const POLL_INTERVAL_MS = 1_000;

/**
 * Reads a job until `done` says it ended, `seconds` passed, or the tool call was cancelled;
 * answers the last reading and whether the job ended.
 */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, seconds: number, signal: AbortSignal): Promise<{ value: T; ended: boolean }> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (done(value)) return { value, ended: true };
    const left = deadline - Date.now();
    if (left <= 0 || signal.aborted) return { value, ended: false };
    await sleep(Math.min(POLL_INTERVAL_MS, left));
  }
}
