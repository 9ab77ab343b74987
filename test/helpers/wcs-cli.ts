import { execFile } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';
import { ROOT } from '../../src/config/paths';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `wcs` bin against the run's database. */
export function wcs(...args: string[]): Promise<CliRun> {
  return wcsWith({}, ...args);
}

/** `wcs` with more settings: the run's Temporal server and queue prefix, for commands that read Schedules. */
export function wcsWithTemporal(...args: string[]): Promise<CliRun> {
  return wcsWith({ TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_TASK_QUEUE_PREFIX: inject('queuePrefix') }, ...args);
}

function wcsWith(env: Record<string, string>, ...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'src', 'cli', 'bin.cjs'), ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: inject('databaseUrl'), ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
