import path from 'node:path';
import { connectDatabase } from '../../src/db/client';
import { migrateDatabase } from '../../src/db/migrate';
import { ensureChromium } from '../../src/dev/chromium-setup';
import { ROOT } from '../../src/config/paths';
import { provideDatabase } from '../../src/dev/postgres-setup';
import { startTemporalDevServer, type TemporalServer } from '../../src/dev/temporal-dev-server';
import type { Cluster } from '../../src/dev/cluster/cluster';
import { createTeamWithKey } from './accounts';
import { startClusterEnvironment } from './cluster-environment';
import { freePort } from './free-port';
import { startStack, type Stack } from './stack';

export interface EnvironmentOptions {
  /** Names the run's log directory (data/<kind>-logs/<run>). */
  kind: 'test' | 'bench' | 'chaos';
  /** `host:port` entries the gate lets through: the fixture servers. */
  allowPrivateHosts: string[];
  /** Extra Temporal dev-server dynamic config. */
  temporalConfig?: Record<string, string | number | boolean>;
  /** Extra environment for the API and worker. */
  stackEnv?: Record<string, string>;
  /**
   * `dev-server` (default): what `npm start` runs. `cluster`: the production shape of `npm run
   * cluster` (Temporal on Postgres, two API replicas, two HTTP workers, a browser worker).
   */
  shape?: 'dev-server' | 'cluster';
  log: (message: string) => void;
}

export interface Environment {
  /** The API and worker (on the cluster: the first API replica and the first HTTP worker). */
  stack: Stack;
  /** Every API replica's URL: one on the dev server, two on the cluster. */
  apiUrls: string[];
  /** The whole cluster, when the shape is `cluster`. */
  cluster?: Cluster;
  temporal: TemporalServer;
  databaseUrl: string;
  chromiumPath: string;
  /** A team with 1,000,000 credits, and one with none. */
  team: { teamId: string; key: string };
  broke: { teamId: string; key: string };
  queuePrefix: string;
  logDir: string;
  stop(): Promise<void>;
}

/**
 * What `npm start` runs, for real, for one test or bench run: a Temporal dev server (free
 * ports; in memory for tests, in a file like `npm start`'s for benches), a fresh Postgres
 * database (dropped afterwards), Chromium, and the API and worker as separate processes. Logs
 * go to data/<kind>-logs/<run>.
 */
export async function startEnvironment(o: EnvironmentOptions): Promise<Environment> {
  const run = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  const logDir = path.join(ROOT, 'data', `${o.kind}-logs`, run);
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((err) => console.error(err));
  };
  if (o.kind !== 'test') {
    // A bench (or the chaos suite) is a process of its own: Ctrl-C or a kill must not leave Temporal, the API and the
    // worker running. (A test run's environment is stopped by vitest's teardown.)
    const interrupted = () => void stop().finally(() => process.exit(130));
    process.once('SIGINT', interrupted);
    process.once('SIGTERM', interrupted);
    stops.push(async () => {
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
    });
  }
  if (o.shape === 'cluster') {
    const environment = await startClusterEnvironment(o, run);
    stops.push(() => environment.stop());
    return { ...environment, stop };
  }
  try {
    const chromiumPath = ensureChromium(o.log);
    const temporal = await startTemporalDevServer({
      port: await freePort(),
      uiPort: await freePort(),
      logFile: path.join(logDir, 'temporal.log'),
      dynamicConfig: o.temporalConfig ?? {},
      // A bench measures what `npm start` runs, whose Temporal keeps its state in a file; tests keep it in memory.
      ...(o.kind === 'bench' && { dbFilename: path.join(logDir, 'temporal.db') }),
      log: o.log,
    });
    stops.push(() => temporal.stop());

    const database = await provideDatabase({
      name: `wcs_${o.kind}_${run.replace(/\W/g, '_').toLowerCase()}`,
      dataDir: path.join(logDir, 'pglite'),
      drop: true,
      log: o.log,
    });
    stops.push(() => database.stop());
    await migrateDatabase(database.url);
    const db = connectDatabase(database.url, 2);
    const team = await createTeamWithKey(db.db, o.kind, 1_000_000);
    const broke = await createTeamWithKey(db.db, `${o.kind}-broke`, 0);
    await db.close();

    const queuePrefix = `wcs-${o.kind}`;
    const stack = await startStack({
      databaseUrl: database.url,
      temporalAddress: temporal.address,
      chromiumPath,
      allowPrivateHosts: o.allowPrivateHosts,
      queuePrefix,
      logDir,
      ...(o.stackEnv && { env: o.stackEnv }),
    });
    stops.push(() => stack.stop());
    return { stack, apiUrls: [stack.apiUrl], temporal, databaseUrl: database.url, chromiumPath, team, broke, queuePrefix, logDir, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
