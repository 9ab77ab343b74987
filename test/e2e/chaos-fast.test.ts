import { describe, expect, inject, it } from 'vitest';
import type { ChaosResult } from '../chaos/crawl-through-fault';
import { killOneOfTwoWorkers, restartApiWhilePolling, restartPostgres, type ChaosEnv } from '../chaos/scenarios';

/**
 * The fast subset of `npm run chaos` (test/chaos/run.ts): smaller crawls, the same scenarios'
 * code, each with a stack of its own on the run's Temporal (Postgres: one of its own).
 */
const env = (): ChaosEnv => ({
  databaseUrl: inject('databaseUrl'),
  temporalAddress: inject('temporalAddress'),
  chromiumPath: inject('chromiumPath'),
  siteHost: inject('siteHosts')[1]!,
  logDir: inject('logDir'),
  log: () => {},
});
const SIZE = { pages: 60, pageDelayMs: 40 };

function expectExact(result: ChaosResult): void {
  expect(result).toMatchObject({ stored: SIZE.pages, failed: 0, lost: 0, chargedTwice: 0, uncharged: 0 });
  expect(result.detail).toMatch(/^crawl completed/);
  // Generous: the service was making progress again within a minute of the fault's end.
  expect(result.recoverMs).toBeDefined();
  expect(result.recoverMs!).toBeLessThan(60_000);
}

describe('chaos, fast subset: a crawl through a fault loses no page and charges none twice', () => {
  it('kill -9 of one of two workers mid-crawl', { timeout: 240_000 }, async () => {
    expectExact(await killOneOfTwoWorkers(env(), SIZE));
  });

  it('Postgres stopped and started again mid-crawl', { timeout: 240_000 }, async () => {
    expectExact(await restartPostgres(env(), SIZE, 3_000));
  });

  it('the API killed and started again while clients poll', { timeout: 240_000 }, async () => {
    const result = await restartApiWhilePolling(env(), SIZE, 4);
    expectExact(result);
    expect(result.detail).toMatch(/4 clients polling: [1-9]\d* answers/);
  });
});
