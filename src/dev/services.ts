import { existsSync } from 'node:fs';
import path from 'node:path';
import type { StdioOptions } from 'node:child_process';
import { startProcess, waitFor, type ManagedProcess } from './child-process';
import { ROOT } from '../config/paths';
import { WORKER_NODE_FLAGS, WORKER_PROCESS_ENV } from '../worker/process-settings';

/**
 * The worker's CPU priority below the API's (nice 10): when the machine's cores are all busy,
 * the work a client waits on (the scrapes the API runs itself, its answers and refusals) goes
 * ahead of crawls and batches. With both cores taken by a 50-wide crawl, another team's scrape
 * p50 went from 3.2x to 1.7x its idle value (`npm run bench overload`). An idle machine runs both
 * at full speed. In containers, CPU shares say the same (docker-compose.yml).
 */
const WORKER_NICENESS = 10;
/** coreutils' `nice`, which runs a command at a niceness; every thread the process starts inherits it. */
const NICE = ['/usr/bin/nice', '/bin/nice'].find((p) => existsSync(p));

/** Starts the API or the worker entry point as its own process, as production runs them. */
export function startService(role: 'api' | 'worker', env: NodeJS.ProcessEnv, stdio: StdioOptions = 'inherit'): ManagedProcess {
  const node = [process.execPath, ...(role === 'worker' ? WORKER_NODE_FLAGS : []), '--import', 'tsx', path.join(ROOT, 'src', role, 'main.ts')];
  // `nice` execs the command in its own process, so the pid is the worker's.
  const [command, ...args] = role === 'worker' && NICE ? [NICE, '-n', String(WORKER_NICENESS), ...node] : node;
  return startProcess(role, command!, args, { cwd: ROOT, env: role === 'worker' ? { ...WORKER_PROCESS_ENV, ...env } : env, stdio });
}

/** Waits until the API answers /readyz with 200: Postgres, Temporal and every queue's workers are up. */
export async function waitUntilReady(apiUrl: string, timeoutMs: number, ...processes: ManagedProcess[]): Promise<void> {
  const anyExit = Promise.race(processes.map((p) => p.exited));
  await waitFor(`API at ${apiUrl}/readyz`, async () => (await fetch(`${apiUrl}/readyz`)).status === 200, timeoutMs, anyExit);
}
