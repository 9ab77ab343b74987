import type { ManagedProcess } from './child-process';

export interface SupervisorOptions {
  /** Where restarts are announced. */
  log: (message: string) => void;
  /** Wait before the first restart; doubles with each crash that follows a short run. */
  initialBackoffMs?: number;
  /** Longest wait between restarts. */
  maxBackoffMs?: number;
  /** A run at least this long counts as healthy: the next crash restarts after the initial wait again. */
  stableAfterMs?: number;
  /**
   * Crashes in a row, each after a short run, after which the process is given up (a bad
   * configuration, say). Only exits count: a process waiting for Postgres or Temporal at start
   * (src/startup/wait-for-dependencies.ts) keeps running, so an outage of any length never adds up here.
   */
  maxQuickCrashes?: number;
  /** Called once the process is given up; the caller decides what else stops. */
  onGiveUp: (name: string) => void;
}

/** A process kept running: restarted when it exits unless stopped. */
export interface SupervisedProcess {
  /** Names the process in the log lines. */
  name: string;
  /** The process running now (a new one after each restart). */
  readonly current: ManagedProcess;
  /** Restarts so far. */
  readonly restarts: number;
  /** Stops the process and its supervision. */
  stop(): Promise<void>;
}

/**
 * Starts a process with `start` and restarts it whenever it exits, with exponential backoff, so
 * a crashed worker or API comes back while everything else keeps running. A process that keeps
 * crashing right after start is given up after `maxQuickCrashes`.
 */
export function supervise(name: string, start: () => ManagedProcess, o: SupervisorOptions): SupervisedProcess {
  const initial = o.initialBackoffMs ?? 1_000;
  const max = o.maxBackoffMs ?? 30_000;
  const stableAfter = o.stableAfterMs ?? 60_000;
  const maxQuickCrashes = o.maxQuickCrashes ?? 5;
  let current = start();
  let startedAt = Date.now();
  let restarts = 0;
  let quickCrashes = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const watch = (proc: ManagedProcess) => {
    void proc.exited.then((code) => {
      if (stopped) return;
      const how = proc.child.signalCode ? `signal ${proc.child.signalCode}` : `code ${code}`;
      quickCrashes = Date.now() - startedAt < stableAfter ? quickCrashes + 1 : 1;
      if (quickCrashes > maxQuickCrashes) {
        o.log(`the ${name} process exited (${how}) ${quickCrashes} times in a row soon after starting; giving up on it`);
        o.onGiveUp(name);
        return;
      }
      const waitMs = Math.min(max, initial * 2 ** (quickCrashes - 1));
      o.log(`the ${name} process exited (${how}); restarting it in ${(waitMs / 1000).toFixed(1)} s (restart ${restarts + 1}); the rest keeps running`);
      timer = setTimeout(() => {
        if (stopped) return;
        restarts++;
        current = start();
        startedAt = Date.now();
        o.log(`restarted the ${name} process (pid ${current.child.pid})`);
        watch(current);
      }, waitMs);
    });
  };
  watch(current);

  return {
    name,
    get current() {
      return current;
    },
    get restarts() {
      return restarts;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current.stop();
    },
  };
}
