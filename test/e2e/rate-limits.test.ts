import { mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ManagedProcess } from '../../src/dev/child-process';
import { startService, waitUntilReady } from '../../src/dev/services';
import { createTeamWithKey } from '../helpers/accounts';
import { api, type ApiResponse } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { freePort } from '../helpers/free-port';
import { wcs } from '../helpers/wcs-cli';

/** Requests per minute per key in both API processes of this file. */
const PER_KEY = 4;

/**
 * Two API processes against the run's database and Temporal (the shared workers keep their
 * /readyz green): what one counts, the other sees.
 */
const apis: { url: string; process: ManagedProcess }[] = [];

beforeAll(async () => {
  const logDir = path.join(inject('logDir'), 'rate-limits');
  mkdirSync(logDir, { recursive: true });
  for (const name of ['api-1', 'api-2']) {
    const port = await freePort();
    const log = openSync(path.join(logDir, `${name}.log`), 'a');
    const proc = startService(
      'api',
      {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: inject('databaseUrl'),
        TEMPORAL_ADDRESS: inject('temporalAddress'),
        TEMPORAL_TASK_QUEUE_PREFIX: inject('queuePrefix'),
        DATA_DIR: path.join(logDir, 'data'),
        RATE_LIMIT_PER_MINUTE: String(PER_KEY),
        TEAM_RATE_LIMIT_PER_MINUTE: '0',
        // Two APIs on one host: each picks a free metrics port instead of the default.
        API_METRICS_PORT: '0',
        API_TEMPORAL_METRICS_PORT: '0',
      },
      ['ignore', log, log],
    );
    apis.push({ url: `http://127.0.0.1:${port}`, process: proc });
  }
  await Promise.all(apis.map((a) => waitUntilReady(a.url, 120_000, a.process)));
});
afterAll(async () => {
  await Promise.all(apis.map((a) => a.process.stop()));
});

/** Starts the test at the beginning of a one-minute window, so its counts are not reset midway. */
async function freshWindow(): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 45_000) await sleep(60_000 - intoWindow + 500);
}

const usage = (key: string, on: number) => api('/v1/team/credit-usage', { key, baseUrl: apis[on]!.url });

function rateHeaders(r: ApiResponse) {
  return {
    limit: r.headers.get('ratelimit-limit'),
    remaining: r.headers.get('ratelimit-remaining'),
    reset: Number(r.headers.get('ratelimit-reset')),
  };
}

function expectRefused(r: ApiResponse, whose: RegExp): void {
  expect(r.status).toBe(429);
  expect(r.body).toEqual({ success: false, code: 'RATE_LIMITED', error: expect.stringMatching(whose) });
  const retryAfter = Number(r.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(rateHeaders(r)).toEqual({ limit: expect.any(String), remaining: '0', reset: retryAfter });
}

describe('rate limits shared by API replicas', () => {
  it("counts one key's requests on both API processes against one limit, with RateLimit-* headers", async () => {
    const { key } = await createTeamWithKey(testDatabase().db, `rate-key-${process.pid}`, 10);
    await freshWindow();
    for (let i = 0; i < PER_KEY; i++) {
      const r = await usage(key, i % 2);
      expect(r.status).toBe(200);
      const h = rateHeaders(r);
      expect(h).toEqual({ limit: String(PER_KEY), remaining: String(PER_KEY - 1 - i), reset: expect.any(Number) });
      expect(h.reset).toBeGreaterThanOrEqual(1);
      expect(h.reset).toBeLessThanOrEqual(60);
    }
    // Each process alone has seen only half the limit; together they have seen all of it.
    expectRefused(await usage(key, 0), /for this key;/);
    expectRefused(await usage(key, 1), /for this key;/);
  });

  it("holds a team's limit, set with `wcs limits`, across its keys and both processes, and drops it again", async () => {
    const team = `rate-team-${process.pid}`;
    const db = testDatabase().db;
    const first = await createTeamWithKey(db, team, 10);
    const second = await createTeamWithKey(db, team, 0);
    const other = await createTeamWithKey(db, `rate-other-${process.pid}`, 10);

    const set = await wcs('limits', 'set', '--team', team, '--requests-per-minute', '3');
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toBe('requests-per-minute\t3\nkey-requests-per-minute\tdefault (RATE_LIMIT_PER_MINUTE)\npages-in-flight\tdefault (TEAM_PAGES_IN_FLIGHT)\n');
    expect((await wcs('limits', 'show', '--team', team)).stdout).toBe(set.stdout);
    expect(await wcs('limits', 'set', '--team', team, '--pages-in-flight', '0')).toMatchObject({ code: 2, stderr: expect.stringContaining('--pages-in-flight must be a whole number of at least 1') });

    await freshWindow();
    const sequence = [
      [first.key, 0],
      [second.key, 1],
      [first.key, 1],
    ] as const;
    for (const [i, [key, on]] of sequence.entries()) {
      const r = await usage(key, on);
      expect(r.status).toBe(200);
      // The team's 3 is tighter than each key's 4.
      expect(rateHeaders(r)).toMatchObject({ limit: '3', remaining: String(2 - i) });
    }
    expectRefused(await usage(second.key, 0), /for this key's team;/);
    // Another team is not held back by this one.
    expect((await usage(other.key, 0)).status).toBe(200);

    expect(await wcs('limits', 'set', '--team', team, '--requests-per-minute', 'default')).toMatchObject({ code: 0 });
    // Only the key's own limit is left: the second key has made 3 of its 4 requests (refusals count too).
    const again = await usage(second.key, 1);
    expect(again.status).toBe(200);
    expect(rateHeaders(again)).toMatchObject({ limit: String(PER_KEY), remaining: '1' });
  });
});
