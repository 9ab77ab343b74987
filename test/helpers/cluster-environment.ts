import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { connectDatabase } from '../../src/db/client';
import { startCluster } from '../../src/dev/cluster/cluster';
import { ROOT } from '../../src/config/paths';
import { createTeamWithKey } from './accounts';
import type { Environment, EnvironmentOptions } from './environment';
import type { Stack } from './stack';

/**
 * The cluster of `npm run cluster` (Temporal on Postgres, two API replicas, two HTTP workers, a
 * browser worker; compiled, on the production Node) as a bench or chaos Environment: `stack`
 * names the first API replica and the first HTTP worker, `apiUrls` both replicas, `cluster` all
 * of it. Its settings are the compose file's, with the same knobs a dev-server stack gets (no
 * rate limit, the fixture hosts let through, `stackEnv`).
 */
export async function startClusterEnvironment(o: EnvironmentOptions, run: string): Promise<Environment> {
  const dir = path.join(ROOT, 'data', `${o.kind}-logs`, `${run}-cluster`);
  mkdirSync(dir, { recursive: true });
  const cluster = await startCluster({
    dir,
    throwaway: true,
    ui: false,
    env: { ALLOW_PRIVATE_HOSTS: o.allowPrivateHosts.join(','), RATE_LIMIT_PER_MINUTE: '0', ...o.stackEnv },
    log: o.log,
  });
  try {
    const db = connectDatabase(cluster.databaseUrl, 2);
    const team = await createTeamWithKey(db.db, o.kind, 1_000_000);
    const broke = await createTeamWithKey(db.db, `${o.kind}-broke`, 0);
    await db.close();
    const [api, worker] = [cluster.apis[0]!, cluster.httpWorkers[0]!];
    const notHere = async (): Promise<never> => {
      throw new Error('the cluster restarts its own processes: kill one (ClusterService.kill) instead');
    };
    const stack: Stack = {
      apiUrl: cluster.apiUrls[0]!,
      queuePrefix: cluster.queuePrefix,
      apiMetricsUrl: api.metricsUrl,
      workerMetricsUrl: worker.metricsUrl,
      get api() {
        return api.current!;
      },
      get worker() {
        return worker.current!;
      },
      restartWorker: notHere,
      addWorker: notHere,
      restartApi: notHere,
      stop: () => cluster.stop(),
    };
    return {
      stack,
      apiUrls: cluster.apiUrls,
      cluster,
      temporal: { address: cluster.temporalAddress, uiUrl: cluster.uiUrl ?? '', stop: () => cluster.temporal.stop() },
      databaseUrl: cluster.databaseUrl,
      chromiumPath: cluster.chromiumPath,
      team,
      broke,
      queuePrefix: cluster.queuePrefix,
      logDir: cluster.logDir,
      stop: () => cluster.stop(),
    };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}
