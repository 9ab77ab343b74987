import { existsSync, openSync } from 'node:fs';
import path from 'node:path';
import { startProcess, type ManagedProcess } from '../child-process';
import { supervise, type SupervisedProcess } from '../supervisor';
import type { ProcessSpec } from './one-shot';

/** coreutils' `nice`: a worker below the API, as docker-compose.yml's cpu_shares put it (and `npm start` does). */
const NICE = ['/usr/bin/nice', '/bin/nice'].find((p) => existsSync(p));
const WORKER_NICENESS = 10;

/** One long-running service of the cluster, restarted when it exits as compose's `restart: unless-stopped` does. */
export interface ClusterService {
  name: string;
  /** The running process's pid (a new one after each restart); undefined while stopped. */
  readonly pid: number | undefined;
  /** The process now (a new one after each restart); undefined while stopped. */
  readonly current: ManagedProcess | undefined;
  /** Restarts after crashes and kills so far. */
  readonly restarts: number;
  /** Sends `signal` (kill -9 by default) to the process; it is restarted as after a crash. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Stops it and keeps it stopped (`docker compose stop`). */
  stop(): Promise<void>;
  /** Starts it again after `stop` (`docker compose start`). */
  start(): void;
}

export interface ServiceSpec extends ProcessSpec {
  /** Runs below the API's CPU priority (a worker). */
  niced?: boolean;
  log: (message: string) => void;
  /** Called when it keeps crashing right after start and is given up. */
  onGiveUp: (name: string) => void;
}

/** Starts `spec` under supervision; its output goes to `<logDir>/<name>.log`. */
export function startClusterService(spec: ServiceSpec): ClusterService {
  const logFd = openSync(path.join(spec.logDir, `${spec.name}.log`), 'a');
  const [command, args] = spec.niced && NICE ? [NICE, ['-n', String(WORKER_NICENESS), spec.command, ...spec.args]] : [spec.command, spec.args];
  const spawn = (): ManagedProcess => startProcess(spec.name, command, args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', logFd, logFd] });
  const run = () => supervise(spec.name, spawn, { log: spec.log, onGiveUp: spec.onGiveUp });
  let supervised: SupervisedProcess | undefined = run();
  let restartsBefore = 0;
  return {
    name: spec.name,
    get pid() {
      const child = supervised?.current.child;
      return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
    },
    get current() {
      return supervised?.current;
    },
    get restarts() {
      return restartsBefore + (supervised?.restarts ?? 0);
    },
    async kill(signal = 'SIGKILL') {
      const current = supervised?.current;
      if (!current) return;
      current.child.kill(signal);
      await current.exited;
    },
    async stop() {
      restartsBefore += supervised?.restarts ?? 0;
      await supervised?.stop();
      supervised = undefined;
    },
    start() {
      supervised ??= run();
    },
  };
}
