import path from 'node:path';
import type { StdioOptions } from 'node:child_process';
import { startProcess, waitFor, type ManagedProcess } from './child-process';
import { ROOT } from './paths';

/** Starts the API or the worker entry point as its own process, as production runs them. */
export function startService(role: 'api' | 'worker', env: NodeJS.ProcessEnv, stdio: StdioOptions = 'inherit'): ManagedProcess {
  return startProcess(role, process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', role, 'main.ts')], { cwd: ROOT, env, stdio });
}

/** Waits until the API answers /readyz with 200: Postgres, Temporal and every queue's workers are up. */
export async function waitUntilReady(apiUrl: string, timeoutMs: number, ...processes: ManagedProcess[]): Promise<void> {
  const anyExit = Promise.race(processes.map((p) => p.exited));
  await waitFor(`API at ${apiUrl}/readyz`, async () => (await fetch(`${apiUrl}/readyz`)).status === 200, timeoutMs, anyExit);
}
