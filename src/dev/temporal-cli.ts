import { existsSync } from 'node:fs';
import path from 'node:path';
import { executable, goInstall, onPath } from './go-install';
import { CACHE_DIR } from '../config/paths';

/** The newest tag that `go install` can build (later tags carry a `replace` directive). */
export const TEMPORAL_CLI_VERSION = '1.5.1';
const CACHED_DIR = path.join(CACHE_DIR, `temporal-cli-${TEMPORAL_CLI_VERSION}`);

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
  if (goInstall(CACHED_DIR, [`github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`], log) && existsSync(cached)) return cached;
  log('go install of the Temporal CLI failed; falling back to the download');
  return null;
}
