/**
 * One abort signal for a unit of work: fires at the deadline or when `cancel` fires, and says
 * which, so a timeout is reported as a timeout and a cancellation as a cancellation.
 */
export function deadlineSignal(deadline: number, cancel?: AbortSignal): { signal: AbortSignal; timedOut: () => boolean; remainingMs: () => number } {
  const timeout = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
  return {
    signal: cancel ? AbortSignal.any([cancel, timeout]) : timeout,
    // Or by the clock: a Playwright timer set to the remaining time may fire before this one.
    timedOut: () => timeout.aborted || Date.now() >= deadline,
    // Never 0: Playwright reads a timeout of 0 as no timeout at all.
    remainingMs: () => Math.max(1, deadline - Date.now()),
  };
}

/**
 * What `run` returns, or a rejection with the signal's reason as soon as `signal` aborts (without
 * calling `run` if it already has). For a call that may neither settle nor fail once its work is
 * abandoned; what it does after the abort is left to end on its own.
 */
export function abortable<T>(signal: AbortSignal, run: () => Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const aborted = () => reject(signal.reason);
    signal.addEventListener('abort', aborted, { once: true });
    run().then(
      (value) => {
        signal.removeEventListener('abort', aborted);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', aborted);
        reject(err);
      },
    );
  });
}
