import path from 'node:path';
import { ensureGoTool } from './go-install';
import { CACHE_DIR } from '../config/paths';

/** The Temporal server `npm run cluster` runs and docker-compose.yml deploys (TEMPORAL_VERSION). */
export const TEMPORAL_SERVER_VERSION = '1.29.1';
/** The Temporal UI server `npm run cluster` runs and docker-compose.yml deploys (TEMPORAL_UI_VERSION). */
export const TEMPORAL_UI_VERSION = '2.49.1';

export interface TemporalServerInstall {
  /** temporal-server, as the temporalio/server image names it. */
  server: string;
  /** temporal-sql-tool, as the temporalio/admin-tools image names it. */
  sqlTool: string;
  /** The server's `--root`: `config/docker.yaml` in it is the image's configuration, a template of environment variables. */
  root: string;
}

/**
 * The Temporal server and its SQL tool (which embeds the schemas), built from the same module as
 * the images by `go install` into ~/.cache the first time (a few minutes), with the configuration
 * template the module ships.
 */
export function ensureTemporalServer(log: (message: string) => void): TemporalServerInstall {
  const dir = path.join(CACHE_DIR, `temporal-server-${TEMPORAL_SERVER_VERSION}`);
  const binaries = ensureGoTool(
    {
      dir,
      module: 'go.temporal.io/server',
      version: `v${TEMPORAL_SERVER_VERSION}`,
      binaries: { 'cmd/server': 'temporal-server', 'cmd/tools/sql': 'temporal-sql-tool' },
      files: ['config/docker.yaml'],
    },
    log,
  );
  return { server: binaries['temporal-server']!, sqlTool: binaries['temporal-sql-tool']!, root: dir };
}

export interface TemporalUiInstall {
  /** The UI server, which the temporalio/ui image runs. */
  server: string;
  /** Its `--root`: `config/docker.yaml` in it is the image's configuration template. */
  root: string;
}

/** The Temporal Web UI server (github.com/temporalio/ui-server, which embeds the UI), built like the server. */
export function ensureTemporalUi(log: (message: string) => void): TemporalUiInstall {
  const dir = path.join(CACHE_DIR, `temporal-ui-${TEMPORAL_UI_VERSION}`);
  const binaries = ensureGoTool(
    { dir, module: 'github.com/temporalio/ui-server/v2', version: `v${TEMPORAL_UI_VERSION}`, binaries: { 'cmd/server': 'temporal-ui-server' }, files: ['config/docker.yaml'] },
    log,
  );
  return { server: binaries['temporal-ui-server']!, root: dir };
}
