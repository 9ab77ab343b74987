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
import { sampleSum, scrapeMetrics } from '../helpers/prometheus-text';
import { inProcessConfig, startInProcessApi, startInProcessWorkers, type Running } from '../helpers/in-process';
import { startMigratedPostgres, type ThrowawayPostgres } from '../helpers/throwaway-postgres';

/**
 * An API and workers of this file's own, on a database of its own (saturation counts every
 * single-page job of the deployment, so other files' scrapes must not count here), with room
 * for two scrapes in flight.
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
/** A second replica whose limit adapts to its event loop (the first keeps the deployment's count only). */
let adaptive: Running & { url: string; metricsUrl: string };
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
      // Stalls this process's event loop (the in-process API's) inside a request's handling.
      '/stall': (_req, res) => {
        holdEventLoop(800);
        html(res, '<html><body><p>Stalled.</p></body></html>');
      },
    },
    inject('siteHosts')[0]!,
  );
  const config = inProcessConfig({
    DATABASE_URL: pg.url,
    TEMPORAL_TASK_QUEUE_PREFIX: `wcs-backpressure-${process.pid}`,
    WORKER_QUEUES: 'http',
    ALLOW_PRIVATE_HOSTS: new URL(site.url).host,
    MAX_SCRAPES_IN_FLIGHT: String(CAPACITY),
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
  });
  workers = await startInProcessWorkers(config);
  // Its replica limit is off (inProcessConfig): these cases are about the deployment-wide count.
  apiServer = await startInProcessApi(config);
  // Far above a loaded machine's hiccups; the test holds the loop for longer on purpose.
  adaptive = await startInProcessApi({ ...config, SCRAPE_LOOP_DELAY_MS: 300 });
});
afterAll(async () => {
  for (const hold of holds) hold.release();
  await apiServer?.close();
  await adaptive?.close();
  await workers?.close();
  await site?.close();
  await database?.close();
  await pg?.destroy();
});

const scrape = (path: string, as = key, baseUrl = apiServer.url) => api('/v1/scrape', { key: as, baseUrl, body: { url: `${site.url}${path}`, formats: ['markdown'], timeout: 30_000 } });

/** Holds this process's event loop, which is also the in-process APIs'. */
function holdEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(50);
  }
}

describe('backpressure', () => {
  it('refuses new scrapes with 503 and Retry-After while the workers are saturated, answers the accepted ones, and serves again after', async () => {
    const accepted = [scrape('/held'), scrape('/held')];
    let answered = 0;
    for (const a of accepted) void a.finally(() => answered++);
    await until('both held scrapes reach the site', () => holds.length === CAPACITY);

    for (let i = 0; i < 3; i++) {
      const refused = await scrape('/quick');
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ success: false, code: 'SERVICE_UNAVAILABLE', error: 'The workers are saturated: this deployment takes no more scrapes or screenshots at the moment; retry in 1 s' });
      expect(refused.headers.get('retry-after')).toBe('1');
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
    expect(refused.headers.get('retry-after')).toBe('1');
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

  // Last: the other replica sees this one's scrapes finish only at its next count (every 200 ms).
  it('holds fewer scrapes on a replica whose event loop runs late, refusing the rest at once, and takes them again once it keeps up', async () => {
    holds.length = 0;
    const first = scrape('/held', key, adaptive.url);
    await until('the scrape reaches the site', () => holds.length === 1);
    // One of the deployment's two places is free, but this replica's loop just ran 0.8 s late:
    // the next 250 ms window cuts its limit.
    const quickHits = site.hits.get('/quick') ?? 0;
    const longStallWindows = async () => {
      const stalls = await scrapeMetrics(adaptive.metricsUrl);
      const windows = (le: string) => sampleSum(stalls, 'wcs_scrape_replica_loop_stall_seconds_bucket', { le }) ?? 0;
      return windows('+Inf') - windows('0.5');
    };
    const longStallsBefore = await longStallWindows();
    await fetch(`${site.url}/stall`).then((r) => r.arrayBuffer());
    await sleep(400);
    const refused = await scrape('/quick', key, adaptive.url);
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ success: false, code: 'SERVICE_UNAVAILABLE', error: 'This API replica is saturated: it takes no more scrapes or screenshots at the moment; retry in 1 s' });
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('ratelimit-limit')).toBeNull();
    expect(site.hits.get('/quick') ?? 0).toBe(quickHits);
    // Operators see the stall: one more window whose longest stall passed half a second.
    expect((await longStallWindows()) - longStallsBefore).toBeGreaterThanOrEqual(1);

    // On time again, each window in which it turned a request away gives it one more place.
    let answer = refused;
    await until('the replica takes a scrape again', async () => {
      answer = await scrape('/quick', key, adaptive.url);
      return answer.status !== 503;
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.markdown).toContain('Answered at once.');
    holds[0]!.release();
    expect((await first).status).toBe(200);
  });
});
