import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { RUNTIME_FILE } from '../cli/runtime-info';
import { connectDatabase } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { startCluster, type Cluster } from './cluster/cluster';
import { ensureDevKey } from './dev-key';
import { ROOT } from '../config/paths';
import { PRODUCTION_NODE_VERSION } from './production-node';

const log = (message: string) => console.log(`[cluster] ${message}`);

/** Ports people type: those of docker-compose.yml's published ports (API_PORT, TEMPORAL_UI_PORT) and the frontend's default. */
const port = (name: string, fallback: number) => Number(process.env[name] || fallback);

/**
 * `npm run cluster`: the production shape of docker-compose.yml on this machine (see
 * src/dev/cluster/cluster.ts), its state in data/cluster (kept across runs, as compose's volumes
 * are), until Ctrl-C stops all of it.
 */
async function main(): Promise<void> {
  let cluster: Cluster | undefined;
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping...');
    await cluster?.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  try {
    const apiPort = port('API_PORT', 3002);
    cluster = await startCluster({
      dir: path.join(ROOT, 'data', 'cluster'),
      apiPorts: [apiPort, apiPort + 1],
      temporalPort: port('FRONTEND_GRPC_PORT', 7233),
      uiPort: port('TEMPORAL_UI_PORT', 8080),
      onGiveUp: () => void stopAll(1),
      log,
    });
    if (stopping) return;
    // The API migrated already; this only waits for it to be done.
    await migrateDatabase(cluster.databaseUrl);
    const db = connectDatabase(cluster.databaseUrl, 1);
    const key = await ensureDevKey(db.db, cluster.dataDir);
    await db.close();
    // For `wcs` with DATA_DIR=data/cluster/data.
    writeFileSync(path.join(cluster.dataDir, RUNTIME_FILE), JSON.stringify({ databaseUrl: cluster.databaseUrl, temporalAddress: cluster.temporalAddress, apiUrl: cluster.apiUrls[0] }, null, 2));
    const rel = (p: string) => path.relative(ROOT, p);
    console.log(`
  the production shape of docker-compose.yml is running, compiled, on Node ${PRODUCTION_NODE_VERSION}

    API replicas   ${cluster.apiUrls.join('  ')}   (one public address: ${cluster.apiUrls[0]})
    API key        ${key}
    Workers        ${[...cluster.httpWorkers, ...cluster.browserWorkers].map((w) => w.name).join(', ')}
    Metrics        ${[...cluster.apis, ...cluster.httpWorkers, ...cluster.browserWorkers].map((m) => m.metricsUrl).join('\n                   ')}
    Temporal       ${cluster.temporalAddress} (Postgres persistence; UI ${cluster.uiUrl ?? 'off'})
    Postgres       ${cluster.databaseUrl}
    Data, logs     ${rel(cluster.dataDir)}, ${rel(cluster.logDir)}

  Try it:
    curl -s ${cluster.apiUrls[1]}/v1/scrape \\
      -H "Authorization: Bearer ${key}" \\
      -H "Content-Type: application/json" \\
      -d '{"url": "https://example.com"}'

  Ctrl-C stops all of it.
`);
  } catch (err) {
    console.error('[cluster] failed:', err);
    await stopAll(1);
  }
}

void main();
