/**
 * One abort signal for a unit of work: fires at the deadline or when `cancel` fires, and says
 * which, so a timeout is reported as a timeout and a cancellation as a cancellation.
 */
export function deadlineSignal(deadline: number, cancel?: AbortSignal): { signal: AbortSignal; timedOut: () => boolean; remainingMs: () => number } {
  const timeout = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
  return {
    signal: cancel ? AbortSignal.any([cancel, timeout]) : timeout,
    timedOut: () => timeout.aborted,
    // Never 0: Playwright reads a timeout of 0 as no timeout at all.
    remainingMs: () => Math.max(1, deadline - Date.now()),
  };
}
