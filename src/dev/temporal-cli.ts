import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { CACHE_DIR } from '../config/paths';

/** The newest tag that `go install` can build (later tags carry a `replace` directive). */
export const TEMPORAL_CLI_VERSION = '1.5.1';
const CACHED_DIR = path.join(CACHE_DIR, `temporal-cli-${TEMPORAL_CLI_VERSION}`);

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && executable(candidate)) return candidate;
  }
  return null;
}

/**
 * The `temporal` binary: TEMPORAL_CLI_PATH, then PATH, then our cache, then a `go install` into
 * the cache when Go is present. Null means none could be had; the caller falls back to the
 * download that @temporalio/testing makes.
 */
export function findTemporalCli(log: (message: string) => void): string | null {
  const configured = process.env.TEMPORAL_CLI_PATH;
  if (configured) {
    if (!executable(configured)) throw new Error(`TEMPORAL_CLI_PATH=${configured} is not an executable file`);
    return configured;
  }
  const fromPath = onPath('temporal');
  if (fromPath) return fromPath;
  const cached = path.join(CACHED_DIR, 'temporal');
  if (existsSync(cached)) return cached;
  const go = onPath('go');
  if (!go) return null;
  log(`building the Temporal CLI v${TEMPORAL_CLI_VERSION} with go install (first run only; takes a few minutes)...`);
  mkdirSync(CACHED_DIR, { recursive: true });
  const result = spawnSync(go, ['install', `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`], {
    env: { ...process.env, GOBIN: CACHED_DIR },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status === 0 && existsSync(cached)) return cached;
  log('go install of the Temporal CLI failed; falling back to the download');
  return null;
}
