/** A background loop of a process. */
export interface Repeating {
  /** Stops after the pass under way, if any. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` `intervalMs` after the previous pass ended, until stopped. A pass handles its own
 * errors: the loop only keeps time.
 */
export function repeatEvery(intervalMs: number, pass: () => Promise<void>): Repeating {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
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
