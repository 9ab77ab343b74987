import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RUNTIME_FILE } from '../cli/runtime-info';
import { loadConfig } from '../config/env';
import { connectDatabase } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { ensureChromium } from './chromium-setup';
import { ensureDevKey } from './dev-key';
import { ROOT } from '../config/paths';
import { provideDatabase } from './postgres-setup';
import { startService, waitUntilReady } from './services';
import { supervise } from './supervisor';
import { startTemporalDevServer } from './temporal-dev-server';

const log = (message: string) => console.log(`[start] ${message}`);

/**
 * `npm start`: sets up whatever is missing (Chromium, Temporal, Postgres, schema, a dev key),
 * runs the API and the worker as separate processes (each restarted if it crashes), and stops
 * everything on Ctrl-C.
 */
async function main(): Promise<void> {
  const dataDir = path.resolve(ROOT, process.env.DATA_DIR ?? 'data');
  const stops: (() => Promise<void>)[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping...');
    for (const stop of stops.reverse()) await stop().catch((err) => console.error(err));
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  try {
    const chromium = ensureChromium(log);

    let temporalAddress = process.env.TEMPORAL_ADDRESS;
    let temporalUi = process.env.TEMPORAL_UI_URL ?? 'your Temporal cluster\'s UI';
    if (!temporalAddress) {
      log('starting the Temporal dev server...');
      const server = await startTemporalDevServer({
        port: 7233,
        uiPort: 8233,
        dbFilename: path.join(dataDir, 'temporal.db'),
        logFile: path.join(dataDir, 'logs', 'temporal.log'),
        log,
      });
      stops.push(() => server.stop());
      temporalAddress = server.address;
      temporalUi = server.uiUrl;
    }

    mkdirSync(dataDir, { recursive: true });
    const database = await provideDatabase({ name: 'web_context_service', dataDir: path.join(dataDir, 'pglite'), log });
    stops.push(() => database.stop());
    const env = { ...process.env, DATABASE_URL: database.url, TEMPORAL_ADDRESS: temporalAddress, CHROMIUM_PATH: chromium, DATA_DIR: dataDir };
    const config = loadConfig(env);

    writeFileSync(path.join(dataDir, RUNTIME_FILE), JSON.stringify({ databaseUrl: database.url, temporalAddress, apiUrl: config.PUBLIC_URL }, null, 2));
    const db = connectDatabase(config.DATABASE_URL, 2);
    await migrateDatabase(config.DATABASE_URL);
    const key = await ensureDevKey(db.db, dataDir);
    await db.close();

    // A crashed worker or API is restarted with backoff; one that cannot stay up stops everything.
    const onGiveUp = () => void stopAll(1);
    const services = (['worker', 'api'] as const).map((role) => supervise(role, () => startService(role, env), { log, onGiveUp }));
    for (const service of services) stops.push(() => service.stop());
    await waitUntilReady(config.PUBLIC_URL, 180_000);

    console.log(`
  web-context-service is running

    API          ${config.PUBLIC_URL}            (docs: ${config.PUBLIC_URL}/docs)
    API key      ${key}
    Temporal UI  ${temporalUi}
    Postgres     ${database.source}
    Data         ${dataDir}
    Metrics      ${config.PUBLIC_URL}/metrics${config.WORKER_METRICS_PORT ? `, worker: http://${config.HOST}:${config.WORKER_METRICS_PORT}/metrics` : ''}

  Try it:
    curl -s ${config.PUBLIC_URL}/v1/scrape \\
      -H "Authorization: Bearer ${key}" \\
      -H "Content-Type: application/json" \\
      -d '{"url": "https://example.com"}'

  Ctrl-C stops everything.
`);
  } catch (err) {
    console.error('[start] failed:', err);
    await stopAll(1);
  }
}

void main();
