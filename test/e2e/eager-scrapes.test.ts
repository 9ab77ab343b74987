import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { jobs, ledger, pages } from '../../src/db/schema';
import { pageColumns } from '../../src/db/page-row';
import { pageToDocument } from '../../src/firecrawl/v1/document';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { api } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { startTemporalDevServer, type TemporalServer } from '../../src/dev/temporal-dev-server';
import { freeLowPort, freePort } from '../helpers/free-port';
import { sampleSum, scrapeMetrics } from '../helpers/prometheus-text';
import { startOwnStack } from '../helpers/own-stack';
import { startStack, type Stack } from '../helpers/stack';
import { testTemporal } from '../helpers/temporal';
import { closedHistory } from '../helpers/workflow-history';

/**
 * The API runs the scrapes it starts in a Temporal worker of its own, started eagerly
 * (EAGER_SCRAPES, on by default); the worker processes poll the same queue and take over
 * whatever it does not run. Which process ran a scrape is in its history: the identity
 * (`<pid>@<host>`) of the worker that took its first workflow task.
 */
const PAGE = '<html><head><title>Tide table</title></head><body><main><h1>Tide table</h1><p>High water at 06:12 and 18:40.</p></main></body></html>';
/** How long /slow takes to answer: long enough to kill the API while its scrape waits on it. */
const SLOW_MS = 3_000;

let site: FixtureServer;
let eager: Stack;
let queued: Stack;

async function identityOfFirstTask(scrapeId: string, client?: Client): Promise<string> {
  client ??= await testTemporal();
  const history = await client.workflow.getHandle(`scrape-${scrapeId}`).fetchHistory();
  return history.events?.find((e) => e.workflowTaskStartedEventAttributes)?.workflowTaskStartedEventAttributes?.identity ?? '';
}

/** The API's count of scrape starts Temporal handed to its own worker (eager) and to the queue. */
async function eagerStarts(stack: Stack): Promise<{ eager: number; queued: number }> {
  const m = await scrapeMetrics(stack.apiMetricsUrl);
  return { eager: sampleSum(m, 'wcs_scrape_starts_total', { eager: 'true' }) ?? 0, queued: sampleSum(m, 'wcs_scrape_starts_total', { eager: 'false' }) ?? 0 };
}

/** The API's count of pages it began fetching while it started their scrape, by whether the scrape's activity took the fetch over. */
async function prefetches(stack: Stack): Promise<{ used: number; dropped: number }> {
  const m = await scrapeMetrics(stack.apiMetricsUrl);
  return { used: sampleSum(m, 'wcs_scrape_prefetches_total', { used: 'true' }) ?? 0, dropped: sampleSum(m, 'wcs_scrape_prefetches_total', { used: 'false' }) ?? 0 };
}

/** The API's count of scrapes it answered, by where it learnt the page was stored (its own worker, or the workflow's result). */
async function answers(stack: Stack): Promise<{ here: number; workflow: number }> {
  const m = await scrapeMetrics(stack.apiMetricsUrl);
  return { here: sampleSum(m, 'wcs_scrape_answers_total', { from: 'here' }) ?? 0, workflow: sampleSum(m, 'wcs_scrape_answers_total', { from: 'workflow' }) ?? 0 };
}

beforeAll(async () => {
  site = await startFixtureServer(
    {
      '/tides': (_req, res) => html(res, PAGE),
      '/counted': (_req, res) => html(res, PAGE),
      '/counted-v2': (_req, res) => html(res, PAGE),
      '/slow': async (_req, res) => {
        await sleep(SLOW_MS);
        if (!res.destroyed) html(res, PAGE);
      },
    },
    inject('siteHosts')[0]!,
  );
  const allowPrivateHosts = [new URL(site.url).host];
  [eager, queued] = await Promise.all([
    startOwnStack('eager', { allowPrivateHosts }),
    startOwnStack('queued', { allowPrivateHosts, env: { EAGER_SCRAPES: 'false' } }),
  ]);
});

afterAll(async () => {
  await Promise.all([eager?.stop(), queued?.stop()]);
  await site?.close();
});

describe('scrapes the API starts', () => {
  it("run in the API's own scrape worker, started eagerly, and are answered as soon as the worker has stored them", async () => {
    const before = await eagerStarts(eager);
    const answeredBefore = await answers(eager);
    const { status, body } = await api('/v1/scrape', { baseUrl: eager.apiUrl, body: { url: `${site.url}/tides` } });
    expect(status).toBe(200);
    expect(body.data.markdown).toContain('High water at 06:12');
    // Answered from the worker beside it, not from the workflow's result: by then the page, its
    // charge and the job's completion were committed together.
    expect(await answers(eager)).toEqual({ here: answeredBefore.here + 1, workflow: answeredBefore.workflow });
    const jobId = body.data.metadata.scrapeId as string;
    const db = testDatabase().db;
    expect((await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, jobId)))[0]?.status).toBe('completed');
    expect(await db.select({ amount: ledger.amount }).from(ledger).where(eq(ledger.idempotencyKey, `scrape:${jobId}`))).toEqual([{ amount: -1 }]);
    expect(await identityOfFirstTask(body.data.metadata.scrapeId)).toMatch(new RegExp(`^${eager.api.child.pid}@`));
    // Temporal handed the first task back with the start (the API's worker polls the queue too,
    // so where the task ran alone would not tell).
    expect(await eagerStarts(eager)).toEqual({ eager: before.eager + 1, queued: before.queued });
    // The API's metrics carry its scrape worker's Temporal SDK series, as a worker's does.
    const m = await scrapeMetrics(eager.apiMetricsUrl);
    expect(sampleSum(m, 'temporal_workflow_task_execution_latency_seconds_count', { task_queue: `${inject('queuePrefix')}-eager-scrape` })).toBeGreaterThanOrEqual(1);
  });

  it('fetch their page once: the API begins the fetch while the workflow starts, and the activity takes it over', async () => {
    const before = await prefetches(eager);
    const { status, body } = await api('/v1/scrape', { baseUrl: eager.apiUrl, body: { url: `${site.url}/counted` } });
    expect(status).toBe(200);
    expect(body.data.markdown).toContain('High water at 06:12');
    expect(site.hits.get('/counted')).toBe(1);
    expect(await prefetches(eager)).toEqual({ used: before.used + 1, dropped: before.dropped });
    // Answered from the row the worker stored, which is the row Postgres holds.
    const [stored] = await testDatabase().db.select(pageColumns).from(pages).where(eq(pages.id, body.data.metadata.scrapeId));
    expect(body.data).toEqual(JSON.parse(JSON.stringify(pageToDocument(stored!, ['markdown']))));
    const charges = await testDatabase().db.select({ amount: ledger.amount }).from(ledger).where(eq(ledger.idempotencyKey, `scrape:${body.data.metadata.scrapeId}`));
    expect(charges).toEqual([{ amount: -1 }]);
  });

  it('look up a stored copy before they fetch ahead (v2, whose maxAge is two days): a fresh page is fetched ahead once, a stored one not at all', async () => {
    const v2Scrape = () => api('/v2/scrape', { baseUrl: eager.apiUrl, body: { url: `${site.url}/counted-v2` } });
    const before = await prefetches(eager);
    const first = await v2Scrape();
    expect(first.status).toBe(200);
    expect(first.body.data.markdown).toContain('High water at 06:12');
    expect(site.hits.get('/counted-v2')).toBe(1);
    expect(await prefetches(eager)).toEqual({ used: before.used + 1, dropped: before.dropped });

    const again = await v2Scrape();
    expect(again.status).toBe(200);
    expect(again.body.data.markdown).toContain('High water at 06:12');
    expect(again.body.data.metadata.cacheState).toBe('hit');
    expect(site.hits.get('/counted-v2')).toBe(1);
    expect(await prefetches(eager)).toEqual({ used: before.used + 1, dropped: before.dropped });
  });

  it('are answered from their workflow when a json extraction follows the page', async () => {
    const before = await answers(eager);
    const schema = { type: 'object', properties: { title: { type: 'string' } } };
    const { status, body } = await api('/v1/scrape', { baseUrl: eager.apiUrl, body: { url: `${site.url}/tides`, formats: ['json'], jsonOptions: { schema } } });
    expect(status).toBe(200);
    expect(body.data.json).toMatchObject({ title: 'Tide table' });
    expect(await answers(eager)).toEqual({ here: before.here, workflow: before.workflow + 1 });
  });

  it('run on the worker processes when the API runs no scrape worker (EAGER_SCRAPES=false)', async () => {
    const { status, body } = await api('/v1/scrape', { baseUrl: queued.apiUrl, body: { url: `${site.url}/tides` } });
    expect(status).toBe(200);
    expect(body.data.markdown).toContain('High water at 06:12');
    expect(await identityOfFirstTask(body.data.metadata.scrapeId)).toMatch(new RegExp(`^${queued.worker.child.pid}@`));
    expect((await eagerStarts(queued)).eager).toBe(0);
    expect((await answers(queued)).here).toBe(0);
    expect((await answers(queued)).workflow).toBeGreaterThanOrEqual(1);
  });

  it('survive the API being killed mid-page: a worker process runs the scrape again, and it is stored and charged once', async () => {
    const db = testDatabase().db;
    const killedPid = eager.api.child.pid!;
    const request = api('/v1/scrape', { baseUrl: eager.apiUrl, body: { url: `${site.url}/slow`, timeout: 30_000 } }).catch((err: unknown) => err);
    // The scrape's job row appears once the API has started it; then the API dies mid-fetch.
    let jobId: string | undefined;
    await expect
      .poll(async () => {
        const [row] = await db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.kind, 'scrape'), eq(jobs.url, `${site.url}/slow`)));
        jobId = row?.id;
        return jobId;
      }, { timeout: 10_000, interval: 50 })
      .toBeDefined();
    await sleep(SLOW_MS / 3);
    process.kill(killedPid, 'SIGKILL');
    expect(await request).toBeInstanceOf(Error); // the client lost its connection with the API

    // The workflow task the dead API held times out (its 10 s timeout) and a worker process runs it again.
    await expect.poll(async () => (await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, jobId!)))[0]?.status, { timeout: 30_000, interval: 250 }).toBe('completed');
    const charges = await db.select({ amount: ledger.amount }).from(ledger).where(eq(ledger.idempotencyKey, `scrape:${jobId}`));
    expect(charges).toEqual([{ amount: -1 }]);
    const client = await testTemporal();
    // The page is stored inside the retried workflow task, which reaches the history once it completes.
    const history = await closedHistory(client, `scrape-${jobId}`);
    const identities = (history.events ?? []).flatMap((e) => e.workflowTaskStartedEventAttributes?.identity ?? []);
    expect(identities[0]).toMatch(new RegExp(`^${killedPid}@`));
    expect(identities.at(-1)).toMatch(new RegExp(`^${eager.worker.child.pid}@`));
    await eager.restartApi();
  });
});

describe("the API's scrape worker when Temporal goes away", () => {
  let temporal: TemporalServer | undefined;
  let stack: Stack | undefined;
  let port: number;
  const logDir = () => path.join(inject('logDir'), 'eager-outage');
  const startTemporal = async () =>
    (temporal = await startTemporalDevServer({ port, uiPort: await freePort(), logFile: path.join(logDir(), 'temporal.log'), log: () => {} }));

  beforeAll(async () => {
    port = await freeLowPort();
    await startTemporal();
    stack = await startStack({
      databaseUrl: inject('databaseUrl'),
      temporalAddress: `127.0.0.1:${port}`,
      chromiumPath: inject('chromiumPath'),
      allowPrivateHosts: [new URL(site.url).host],
      queuePrefix: `${inject('queuePrefix')}-eager-outage`,
      logDir: logDir(),
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await temporal?.stop();
  });

  it('answers 503 while Temporal is down, starts scrapes eagerly again once it is back, and logs only JSON lines', async () => {
    const scrape = () => api('/v1/scrape', { baseUrl: stack!.apiUrl, body: { url: `${site.url}/tides` } });
    expect((await scrape()).status).toBe(200);

    await temporal!.stop();
    const down = await scrape();
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });

    // A new, empty Temporal on the same address: the API's worker reconnects on its own.
    await startTemporal();
    const connection = await Connection.connect({ address: `127.0.0.1:${port}` });
    try {
      const client = new Client({ connection });
      await expect
        .poll(
          async () => {
            const { status, body } = await scrape();
            return status === 200 ? identityOfFirstTask(body.data.metadata.scrapeId, client) : `status ${status}`;
          },
          { timeout: 90_000, interval: 1_000 },
        )
        .toMatch(new RegExp(`^${stack!.api.child.pid}@`));
    } finally {
      await connection.close();
    }
    // The SDK core's retries while Temporal was down came through our logger, not as plain text.
    const lines = readFileSync(path.join(logDir(), 'api.log'), 'utf8').split('\n').filter(Boolean);
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual([]);
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => l.component === 'temporal' && l.sdkComponent === 'core').length).toBeGreaterThan(0);
  });
});
