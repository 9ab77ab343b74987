import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase } from '../../src/db/client';
import { migrateDatabase } from '../../src/db/migrate';
import { startTemporalDevServer, type TemporalServer } from '../../src/dev/temporal-dev-server';
import { createTeamWithKey } from '../helpers/accounts';
import { api, fixture } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { freePort } from '../helpers/free-port';
import { inProcessConfig, startInProcessApi, startInProcessWorkers, type Running } from '../helpers/in-process';
import { postgresBinDir, startThrowawayPostgres, type ThrowawayPostgres } from '../helpers/throwaway-postgres';

/** What the API tells a client to wait (src/api/dependency-outage.ts). */
const RETRY_AFTER = '5';

describe('Postgres outage under a running API', () => {
  let pg: ThrowawayPostgres | undefined;
  let apiServer: (Running & { url: string }) | undefined;
  let key: string;

  beforeAll(async () => {
    // The suite runs where PostgreSQL's server binaries are installed (README, "Two commands").
    const pgBin = postgresBinDir();
    if (!pgBin) throw new Error('initdb and pg_ctl not found: install PostgreSQL server binaries (Debian: postgresql) to run this test');
    pg = await startThrowawayPostgres(pgBin);
    await migrateDatabase(pg.url);
    const database = connectDatabase(pg.url, 1);
    try {
      ({ key } = await createTeamWithKey(database.db, 'outage', 7));
    } finally {
      await database.close();
    }
    apiServer = await startInProcessApi(inProcessConfig({ DATABASE_URL: pg.url }));
  });
  afterAll(async () => {
    await apiServer?.close();
    await pg?.destroy();
  });

  const creditUsage = () => api('/v1/team/credit-usage', { key, baseUrl: apiServer!.url });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After while Postgres is stopped, and serves again once it is back', async () => {
    const before = await creditUsage();
    expect(before.status).toBe(200);
    expect(before.body.data.remaining_credits).toBe(7);

    await pg!.stop();
    for (let i = 0; i < 2; i++) {
      const down = await creditUsage();
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ success: false, code: 'SERVICE_UNAVAILABLE', error: `Postgres is unavailable; retry in ${RETRY_AFTER} s` });
      expect(down.headers.get('retry-after')).toBe(RETRY_AFTER);
    }
    const ready = await api('/readyz', { key: null, baseUrl: apiServer!.url });
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe(RETRY_AFTER);
    expect(ready.body.details).toContainEqual(expect.objectContaining({ path: 'postgres' }));

    await pg!.start();
    const after = await creditUsage();
    expect(after.status).toBe(200);
    expect(after.body.data.remaining_credits).toBe(7);
  });
});

describe('Temporal outage under a running API', () => {
  const prefix = `wcs-outage-${process.pid}`;
  let port: number;
  let apiServer: (Running & { url: string }) | undefined;
  let temporal: TemporalServer | undefined;
  let workers: Running | undefined;
  let key: string;

  beforeAll(async () => {
    port = await freePort(); // nothing listens here until the test starts a Temporal on it
    ({ key } = await createTeamWithKey(testDatabase().db, `temporal-outage-${process.pid}`, 10));
    apiServer = await startInProcessApi(inProcessConfig({ TEMPORAL_ADDRESS: `127.0.0.1:${port}`, TEMPORAL_TASK_QUEUE_PREFIX: prefix }));
  });
  afterAll(async () => {
    await apiServer?.close();
    await workers?.close();
    await temporal?.stop();
  });

  const scrape = () => api('/v1/scrape', { body: { url: fixture('/article') }, key, baseUrl: apiServer!.url });

  it('answers POST /v1/scrape 503 SERVICE_UNAVAILABLE with Retry-After within seconds, and serves once Temporal is up', async () => {
    const started = Date.now();
    const down = await scrape();
    const waitedMs = Date.now() - started;
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ success: false, code: 'SERVICE_UNAVAILABLE', error: `Temporal is unavailable; retry in ${RETRY_AFTER} s` });
    expect(down.headers.get('retry-after')).toBe(RETRY_AFTER);
    // The SDK's own retries would hold the client about 20 s; the API gives up after about 2.
    expect(waitedMs).toBeLessThan(8_000);

    temporal = await startTemporalDevServer({
      port,
      uiPort: await freePort(),
      logFile: path.join(inject('logDir'), 'outage-temporal.log'),
      log: () => {},
    });
    workers = await startInProcessWorkers(inProcessConfig({ TEMPORAL_ADDRESS: temporal.address, TEMPORAL_TASK_QUEUE_PREFIX: prefix, WORKER_QUEUES: 'http' }));
    const up = await scrape();
    expect(up.status).toBe(200);
    expect(up.body.data.markdown).toContain('A Short History of Lighthouses');
  });
});
