import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase } from '../../src/db/client';
import { migrateDatabase } from '../../src/db/migrate';
import { waitFor, type ManagedProcess } from '../../src/dev/child-process';
import { startService } from '../../src/dev/services';
import { supervise, type SupervisedProcess } from '../../src/dev/supervisor';
import { startTemporalDevServer, type TemporalServer } from '../../src/dev/temporal-dev-server';
import { migrateWhenPostgresIsUp } from '../../src/startup/wait-for-dependencies';
import { createTeamWithKey } from '../helpers/accounts';
import { api, fixture } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { freeLowPort, freePort } from '../helpers/free-port';
import { inProcessConfig, startInProcessApi, type Running } from '../helpers/in-process';
import { postgresBinDir, startThrowawayPostgres, type ThrowawayPostgres } from '../helpers/throwaway-postgres';

/** What the API tells a client to wait (src/startup/dependency-outage.ts). */
const RETRY_AFTER = '5';

/** Starts the API's or the worker's entry point as npm start does, handing what it prints to `sink`. */
function startLogged(role: 'api' | 'worker', env: NodeJS.ProcessEnv, sink: (text: string) => void): ManagedProcess {
  const proc = startService(role, env, ['ignore', 'pipe', 'pipe']);
  for (const stream of [proc.child.stdout!, proc.child.stderr!]) stream.on('data', (chunk: Buffer) => sink(chunk.toString('utf8')));
  return proc;
}

/** The JSON log lines a process printed that say it is waiting for `dependency`. */
function waitingLines(output: string, dependency: string): { service: string; attempt: number; code: string; message: string }[] {
  type Line = { msg?: string; service: string; attempt: number; code: string; message: string };
  const parse = (line: string): Line[] => {
    try {
      return [JSON.parse(line) as Line];
    } catch {
      return []; // not a log line, or one still being written
    }
  };
  return output.split('\n').flatMap(parse).filter((line) => line.msg === `waiting for ${dependency}`);
}

describe('Postgres outage under a running API', () => {
  let pg: ThrowawayPostgres | undefined;
  let apiServer: (Running & { url: string }) | undefined;
  let key: string;

  beforeAll(async () => {
    // The suite runs where PostgreSQL's server binaries are installed (docs/operations.md, "Running it locally").
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
    // A client that retries within the Retry-After it was given is served; until then every
    // answer is the documented 503 (a pooled connection may still meet the old server's end).
    const deadline = Date.now() + Number(RETRY_AFTER) * 1_000;
    let after = await creditUsage();
    while (after.status !== 200 && Date.now() < deadline) {
      expect(after.status).toBe(503);
      expect(after.body.code).toBe('SERVICE_UNAVAILABLE');
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = await creditUsage();
    }
    expect(after.status).toBe(200);
    expect(after.body.data.remaining_credits).toBe(7);
  });
});

describe('Temporal outage under a running API, and under a worker starting', () => {
  const prefix = `wcs-outage-${process.pid}`;
  let port: number;
  let apiServer: (Running & { url: string }) | undefined;
  let temporal: TemporalServer | undefined;
  let worker: ManagedProcess | undefined;
  let workerOutput = '';
  let key: string;

  beforeAll(async () => {
    port = await freeLowPort(); // nothing listens here until the test starts a Temporal on it
    ({ key } = await createTeamWithKey(testDatabase().db, `temporal-outage-${process.pid}`, 10));
    apiServer = await startInProcessApi(inProcessConfig({ TEMPORAL_ADDRESS: `127.0.0.1:${port}`, TEMPORAL_TASK_QUEUE_PREFIX: prefix }));
    // A worker process started (by npm start's supervisor, say) before Temporal is up.
    const env = {
      ...process.env,
      DATABASE_URL: inject('databaseUrl'),
      TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
      CHROMIUM_PATH: inject('chromiumPath'),
      ALLOW_PRIVATE_HOSTS: new URL(inject('fixtureUrl')).host,
      TEMPORAL_TASK_QUEUE_PREFIX: prefix,
      WORKER_QUEUES: 'http',
      DATA_DIR: path.join(inject('logDir'), 'temporal-outage-worker'),
      WORKER_METRICS_PORT: '0',
      TEMPORAL_METRICS_PORT: '0',
      LOG_LEVEL: 'info',
    };
    worker = startLogged('worker', env, (text) => (workerOutput += text));
  });
  afterAll(async () => {
    await apiServer?.close();
    await worker?.stop();
    await temporal?.stop();
  });

  const scrape = () => api('/v1/scrape', { body: { url: fixture('/article') }, key, baseUrl: apiServer!.url });

  it('answers POST /v1/scrape 503 SERVICE_UNAVAILABLE with Retry-After within seconds; the worker waits, and both serve once Temporal is up', async () => {
    const started = Date.now();
    const down = await scrape();
    const waitedMs = Date.now() - started;
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ success: false, code: 'SERVICE_UNAVAILABLE', error: `Temporal is unavailable; retry in ${RETRY_AFTER} s` });
    expect(down.headers.get('retry-after')).toBe(RETRY_AFTER);
    // The SDK's own retries would hold the client about 20 s; the API gives up after about 2.
    expect(waitedMs).toBeLessThan(8_000);

    await waitFor('the worker waiting for Temporal', async () => waitingLines(workerOutput, 'Temporal').length >= 2, 60_000, worker!.exited);
    expect(waitingLines(workerOutput, 'Temporal')[0]).toMatchObject({ service: 'worker', attempt: 1, code: 'TransportError' });
    expect(waitingLines(workerOutput, 'Temporal')[0]!.message).toContain('Connection refused');

    temporal = await startTemporalDevServer({
      port,
      uiPort: await freePort(),
      logFile: path.join(inject('logDir'), 'outage-temporal.log'),
      log: () => {},
    });
    await waitFor('the worker to start', async () => workerOutput.includes('"msg":"worker started"'), 120_000, worker!.exited);
    const up = await scrape();
    expect(up.status).toBe(200);
    expect(up.body.data.markdown).toContain('A Short History of Lighthouses');
  });
});

describe('Postgres down when npm start (re)starts the worker and the API', () => {
  let pg: ThrowawayPostgres | undefined;
  let dataDir: string;
  let apiUrl: string;
  const services: SupervisedProcess[] = [];
  const output: Record<'api' | 'worker', string> = { api: '', worker: '' };
  const supervisorLog: string[] = [];
  const givenUp: string[] = [];
  let gaveUp!: () => void;
  const anyGivenUp = new Promise<void>((resolve) => (gaveUp = resolve));

  beforeAll(async () => {
    const pgBin = postgresBinDir();
    if (!pgBin) throw new Error('initdb and pg_ctl not found: install PostgreSQL server binaries (Debian: postgresql) to run this test');
    pg = await startThrowawayPostgres(pgBin);
    await pg.stop(); // never migrated: the processes find an empty database once it is up
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'wcs-pg-at-start-'));
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: pg.url,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      CHROMIUM_PATH: inject('chromiumPath'),
      ALLOW_PRIVATE_HOSTS: new URL(inject('fixtureUrl')).host,
      TEMPORAL_TASK_QUEUE_PREFIX: `wcs-pg-at-start-${process.pid}`,
      DATA_DIR: dataDir,
      WORKER_METRICS_PORT: '0',
      TEMPORAL_METRICS_PORT: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
    };
    // Windows far tighter than npm start's: a process that exited at its first failed connect
    // would be given up on its second exit, a few seconds in.
    for (const role of ['worker', 'api'] as const) {
      const start = () => startLogged(role, env, (text) => (output[role] += text));
      services.push(supervise(role, start, { log: (m) => supervisorLog.push(m), onGiveUp: (name) => (givenUp.push(name), gaveUp()), initialBackoffMs: 100, maxQuickCrashes: 1 }));
    }
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await pg?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('waits for Postgres, logging each attempt, serves 503 meanwhile, and scrapes once Postgres is up', async () => {
    // Down until the worker has tried six times, about 8 s of waiting after its start.
    await waitFor('six attempts', async () => waitingLines(output.worker, 'Postgres').length >= 6, 90_000, anyGivenUp);
    for (const role of ['worker', 'api'] as const) {
      expect(waitingLines(output[role], 'Postgres')[0]).toMatchObject({ service: role, attempt: 1, code: 'ECONNREFUSED' });
    }
    expect(supervisorLog).toEqual([]);
    expect(givenUp).toEqual([]);

    const health = await api('/healthz', { key: null, baseUrl: apiUrl });
    expect(health.status).toBe(200);
    const scrapeWhileDown = await api('/v1/scrape', { key: 'fc-anything', baseUrl: apiUrl, body: { url: fixture('/article') } });
    expect(scrapeWhileDown.status).toBe(503);
    expect(scrapeWhileDown.body).toEqual({ success: false, code: 'SERVICE_UNAVAILABLE', error: `The API is starting: waiting for Postgres; retry in ${RETRY_AFTER} s` });
    expect(scrapeWhileDown.headers.get('retry-after')).toBe(RETRY_AFTER);

    await pg!.start();
    await waitFor('/readyz', async () => (await fetch(`${apiUrl}/readyz`)).status === 200, 120_000, anyGivenUp);
    const database = connectDatabase(pg!.url, 1);
    let key: string;
    try {
      ({ key } = await createTeamWithKey(database.db, 'pg-at-start', 5));
    } finally {
      await database.close();
    }
    const scraped = await api('/v1/scrape', { key, baseUrl: apiUrl, body: { url: fixture('/article') } });
    expect(scraped.status).toBe(200);
    expect(scraped.body.data.markdown).toContain('A Short History of Lighthouses');
    // Neither process exited: the supervisor never had anything to restart.
    expect(services.map((s) => s.restarts)).toEqual([0, 0]);
    expect(givenUp).toEqual([]);
  });
});

describe('a failure at start that waiting cannot fix', () => {
  it('is thrown at once, without a waiting line: a database that does not exist', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const missing = new URL(inject('databaseUrl'));
    missing.pathname = '/no_such_database';
    await expect(migrateWhenPostgresIsUp(missing.href, logger)).rejects.toMatchObject({ code: '3D000' });
    expect(lines).toEqual([]);
  });
});
