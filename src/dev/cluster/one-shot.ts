import { openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startProcess } from '../child-process';

/** A process of the cluster: what to run, where, and where its output goes. */
export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Folder of `<name>.log`, appended to across runs. */
  logDir: string;
}

export interface OneShotSpec extends ProcessSpec {
  /** Runs after a failure, as compose's `restart: on-failure:N` does. */
  tries: number;
}

/** The last lines of a log, to say why something failed. */
function logTail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Runs a setup service (the schema, the namespace) to completion: exit 0, else again up to `tries` times. */
export async function runOneShot(spec: OneShotSpec): Promise<void> {
  const logFile = path.join(spec.logDir, `${spec.name}.log`);
  const logFd = openSync(logFile, 'a');
  for (let attempt = 1; ; attempt++) {
    const run = startProcess(spec.name, spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', logFd, logFd] });
    const code = await run.exited;
    if (code === 0) return;
    if (attempt >= spec.tries) throw new Error(`${spec.name} failed (exit ${code}) ${attempt} times; the end of ${logFile}:\n${logTail(logFile)}`);
    await sleep(2_000);
  }
}
