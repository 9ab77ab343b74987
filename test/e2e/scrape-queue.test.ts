import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/db/client';
import { jobs } from '../../src/db/schema';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { setTeamLimits } from '../../src/limits/team-limits';
import { createTeamWithKey } from '../helpers/accounts';
import { api } from '../helpers/api';
import { inProcessConfig, startInProcessApi, startInProcessWorkers, type Running } from '../helpers/in-process';
import { startMigratedPostgres, type ThrowawayPostgres } from '../helpers/throwaway-postgres';

/**
 * An API and workers of this file's own, on a database of its own (the queue bound counts every
 * single-page job of the deployment, so other files' scrapes must not count here), with a scrape
 * queue bounded at two (MAX_QUEUED_SCRAPES).
 */
const CAPACITY = 2;
/** Far above what the file sends; on, so that a refusal without RateLimit headers shows it came before the limit. */
const RATE_LIMIT = 1_000;

/** Requests to /held wait until the test releases them; `closed` settles when the client hangs up. */
const holds: { release(): void; closed: Promise<unknown> }[] = [];

let pg: ThrowawayPostgres;
let database: Database;
let site: FixtureServer;
let apiServer: Running & { url: string };
/** A replica on a task queue no worker polls yet, with no queue bound: its scrapes wait in Temporal. */
let unserved: Running & { url: string };
let unservedConfig: ReturnType<typeof inProcessConfig>;
let workers: Running;
let key: string;
/** A team allowed one page in flight (`wcs limits <team> --pagesInFlight 1`), and one on the default. */
let limited: { teamId: string; key: string };
let other: { teamId: string; key: string };

beforeAll(async () => {
  pg = await startMigratedPostgres();
  database = connectDatabase(pg.url, 2);
  ({ key } = await createTeamWithKey(database.db, 'backpressure', 100));
  limited = await createTeamWithKey(database.db, 'one-at-a-time', 100);
  other = await createTeamWithKey(database.db, 'neighbour', 100);
  await setTeamLimits(database.db, limited.teamId, { pagesInFlight: 1 });
  site = await startFixtureServer(
    {
      '/held': (_req, res) =>
        new Promise<void>((resolve) => {
          holds.push({
            release: () => {
              if (!res.destroyed) html(res, '<html><head><title>Held</title></head><body><main><h1>Held page</h1><p>It was worth the wait.</p></main></body></html>');
              resolve();
            },
            closed: once(res, 'close'),
          });
        }),
      '/quick': (_req, res) => html(res, '<html><head><title>Quick</title></head><body><main><h1>Quick page</h1><p>Answered at once.</p></main></body></html>'),
      '/queued': (_req, res) => html(res, '<html><head><title>Queued</title></head><body><main><h1>Queued page</h1><p>Served once a worker came.</p></main></body></html>'),
    },
    inject('siteHosts')[0]!,
  );
  const config = inProcessConfig({
    DATABASE_URL: pg.url,
    TEMPORAL_TASK_QUEUE_PREFIX: `wcs-backpressure-${process.pid}`,
    WORKER_QUEUES: 'http',
    ALLOW_PRIVATE_HOSTS: new URL(site.url).host,
    MAX_QUEUED_SCRAPES: String(CAPACITY),
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
  });
  workers = await startInProcessWorkers(config);
  apiServer = await startInProcessApi(config);
  unservedConfig = inProcessConfig({
    DATABASE_URL: pg.url,
    TEMPORAL_TASK_QUEUE_PREFIX: `wcs-unserved-${process.pid}`,
    WORKER_QUEUES: 'http',
    ALLOW_PRIVATE_HOSTS: new URL(site.url).host,
    MAX_QUEUED_SCRAPES: '0',
  });
  unserved = await startInProcessApi(unservedConfig);
});
afterAll(async () => {
  for (const hold of holds) hold.release();
  await apiServer?.close();
  await unserved?.close();
  await unservedWorkers?.close();
  await workers?.close();
  await site?.close();
  await database?.close();
  await pg?.destroy();
});

const scrape = (path: string, as = key, baseUrl = apiServer.url) => api('/v1/scrape', { key: as, baseUrl, body: { url: `${site.url}${path}`, formats: ['markdown'], timeout: 30_000 } });

let unservedWorkers: Running | undefined;

/** A refusal's Retry-After, which must be the number of seconds its message names. */
function retryAfter(r: { headers: Headers; body: { error: string } }): number {
  const seconds = Number(r.headers.get('retry-after'));
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(60);
  expect(r.body.error).toContain(`retry in ${seconds} s`);
  return seconds;
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(50);
  }
}

describe('the scrape queue', () => {
  it('refuses new scrapes with 503 and a truthful Retry-After once its bound is reached, answers the accepted ones, and serves again after', async () => {
    const accepted = [scrape('/held'), scrape('/held')];
    let answered = 0;
    for (const a of accepted) void a.finally(() => answered++);
    await until('both held scrapes reach the site', () => holds.length === CAPACITY);

    for (let i = 0; i < 3; i++) {
      const refused = await scrape('/quick');
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ success: false, code: 'SERVICE_UNAVAILABLE', error: expect.stringMatching(/^The scrape queue is full \(2 accepted and not finished\); retry in \d+ s$/) });
      // Nothing has finished lately: the line clears no faster than the longest wait named.
      expect(retryAfter(refused)).toBe(60);
      // Refused before its key is looked up: a refusal under overload costs no database query,
      // and so is neither authenticated nor counted against the rate limit.
      expect(refused.headers.get('ratelimit-limit')).toBeNull();
    }
    // Refused at once: before the accepted scrapes were answered, and without a fetch of the page.
    expect(answered).toBe(0);
    expect(site.hits.get('/quick')).toBeUndefined();

    for (const hold of holds) hold.release();
    for (const done of await Promise.all(accepted)) {
      expect(done.status).toBe(200);
      expect(done.body.data.markdown).toContain('It was worth the wait.');
    }
    const after = await scrape('/quick');
    expect(after.status).toBe(200);
    expect(after.body.data.markdown).toContain('Answered at once.');
  });

  it('lets a burst through only as far as there is room: every other request of it is refused before its key is looked up', async () => {
    holds.length = 0;
    const answers: { status: number; rateLimited: boolean }[] = [];
    const burst = Array.from({ length: CAPACITY + 4 }, () =>
      scrape('/held').then((r) => {
        answers.push({ status: r.status, rateLimited: r.headers.get('ratelimit-limit') !== null });
        return r;
      }),
    );
    await until('every scrape of the burst is answered or held by the site', () => answers.length + holds.length === burst.length);
    // Arriving together, all of them found a free slot; had they been let through to their key
    // and rate-limit queries, the ones refused after would carry RateLimit headers. (About
    // CAPACITY get through: the count each replica re-reads every 200 ms may be one off for
    // the span of a read, see ScrapeAdmission.)
    expect(holds.length).toBeGreaterThan(0);
    expect(answers).toEqual(Array.from({ length: burst.length - holds.length }, () => ({ status: 503, rateLimited: false })));

    for (const hold of holds) hold.release();
    const done = await Promise.all(burst);
    const accepted = done.filter((r) => r.status === 200);
    expect(accepted).toHaveLength(holds.length);
    for (const r of accepted) expect(r.body.data.markdown).toContain('It was worth the wait.');
    expect((await scrape('/quick')).status).toBe(200);
  });

  it("keeps a team within its pages in flight: its next scrape is a 429 with Retry-After while another team's is answered", async () => {
    holds.length = 0;
    const first = scrape('/held', limited.key);
    await until('the team\'s scrape reaches the site', () => holds.length === 1);

    const refused = await scrape('/quick', limited.key);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, code: 'RATE_LIMITED', error: expect.stringMatching(/^This team has 1 scrapes in flight, the most it may have at once/) });
    retryAfter(refused);
    const neighbour = await scrape('/quick', other.key);
    expect(neighbour.status).toBe(200);
    expect(neighbour.body.data.markdown).toContain('Answered at once.');

    holds[0]!.release();
    expect((await first).status).toBe(200);
    const after = await scrape('/quick', limited.key);
    expect(after.status).toBe(200);
  });

  it('cancels a scrape whose client gave up: its fetch stops and the job is recorded as cancelled', async () => {
    const before = holds.length;
    const client = new AbortController();
    const request = fetch(`${apiServer.url}/v1/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ url: `${site.url}/held`, formats: ['markdown'], timeout: 120_000 }),
      signal: client.signal,
    });
    request.catch(() => undefined);
    await until('the scrape reaches the site', () => holds.length === before + 1);
    client.abort();

    // The worker hangs up on the site within seconds, long before the page's own timeout.
    let hungUp = false;
    void holds[before]!.closed.then(() => (hungUp = true));
    await until('the worker hangs up on the site', () => hungUp, 15_000);
    await until(
      'the job is recorded',
      async () => (await database.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.kind, 'scrape')).orderBy(desc(jobs.createdAt)).limit(1))[0]?.status !== 'scraping',
    );
    const [job] = await database.db.select().from(jobs).where(eq(jobs.kind, 'scrape')).orderBy(desc(jobs.createdAt)).limit(1);
    expect(job).toMatchObject({ status: 'failed', errorCode: 'SCRAPE_CANCELLED', url: `${site.url}/held` });
  });

  it('admits at full capacity again once a flood has gone: the bound counts work, and nothing else holds it lower', async () => {
    holds.length = 0;
    const flood = await Promise.all(Array.from({ length: CAPACITY * 6 }, () => scrape('/quick')));
    expect(flood.filter((r) => r.status === 503).length).toBeGreaterThan(0);
    for (const r of flood) expect([200, 503]).toContain(r.status);
    // Idle again (the count is re-read every 200 ms): CAPACITY held scrapes at once are all taken.
    await sleep(500);
    const held = Array.from({ length: CAPACITY }, () => scrape('/held'));
    await until('every held scrape reaches the site', () => holds.length === CAPACITY);
    for (const hold of holds) hold.release();
    for (const r of await Promise.all(held)) expect(r.status).toBe(200);
  });

  it("refuses a scrape whose wait in Temporal's queue would pass its timeout; the ones queued before are served once a worker comes", async () => {
    const body = { url: `${site.url}/queued`, formats: ['markdown'], timeout: 2_000 };
    // No worker polls this queue: the scrape waits in Temporal past its timeout, and goes on waiting.
    const queued = await api('/v1/scrape', { key, baseUrl: unserved.url, body });
    expect(queued.status).toBe(408);
    expect(queued.body.code).toBe('SCRAPE_TIMEOUT');
    // Once the queue's oldest task has waited longer than a request's timeout (Temporal's
    // backlog age, read every second), the next one is told so at once instead of timing out.
    let refused = queued;
    await until('a scrape is refused for the wait', async () => {
      refused = await api('/v1/scrape', { key, baseUrl: unserved.url, body: { ...body, url: `${site.url}/quick` } });
      return refused.status === 503;
    });
    expect(refused.body).toEqual({ success: false, code: 'SERVICE_UNAVAILABLE', error: expect.stringMatching(/^Scrapes wait \d+ s for a worker, longer than this request's timeout; retry in \d+ s$/) });
    expect(retryAfter(refused)).toBeGreaterThanOrEqual(2);

    unservedWorkers = await startInProcessWorkers(unservedConfig);
    // The queued scrape was not lost: sent again, the same request gets its page.
    let again = queued;
    await until('the queued scrape is answered', async () => {
      again = await api('/v1/scrape', { key, baseUrl: unserved.url, body });
      return again.status === 200;
    }, 60_000);
    expect(again.body.data.markdown).toContain('Served once a worker came.');
    expect(site.hits.get('/queued')).toBe(1);
  });
});
