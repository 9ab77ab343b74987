import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../config/paths';

/**
 * `npm test`: type-checks, then runs the whole suite with vitest. The suite's global setup
 * provisions Temporal, Postgres, Chromium and the service itself, like `npm start` does.
 */
function run(what: string, args: string[]): void {
  console.log(`[test] ${what}`);
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run('type-checking', [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', ROOT]);
run('running the suite', [path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)]);
