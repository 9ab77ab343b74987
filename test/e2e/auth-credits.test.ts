import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { revokeApiKey } from '../../src/accounts/api-keys';
import { jobs, ledger, pages, rateLimitWindows, searchResults } from '../../src/db/schema';
import { createTeamWithKey } from '../helpers/accounts';
import { api, fixture } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { inProcessConfig, startInProcessApi, startInProcessWorkers, type Running } from '../helpers/in-process';

/** A team of this test's own, so balances are not moved by other test files running alongside. */
async function freshTeam(credits: number) {
  return createTeamWithKey(testDatabase().db, `credits-${randomUUID()}`, credits);
}

async function balance(key: string, baseUrl?: string): Promise<number> {
  const { status, body } = await api('/v1/team/credit-usage', { key, ...(baseUrl && { baseUrl }) });
  expect(status).toBe(200);
  return body.data.remaining_credits;
}

/** The ledger's charges (negative rows) for one job. */
async function chargesOf(jobId: string) {
  return testDatabase().db.select().from(ledger).where(eq(ledger.jobId, jobId));
}

describe('authentication', () => {
  it('answers 401 without a key', async () => {
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/article') }, key: null });
    expect(status).toBe(401);
    expect(body).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
  });

  it('answers 401 with an unknown key, and with a malformed header', async () => {
    const unknown = await api('/v1/team/credit-usage', { key: 'wcs_not-a-real-key' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('UNAUTHORIZED');
    const response = await fetch(`${inject('apiUrl')}/v1/team/credit-usage`, { headers: { authorization: `Basic ${inject('apiKey')}` } });
    expect(response.status).toBe(401);
  });

  it('answers 401 once a key is revoked', async () => {
    const team = await freshTeam(10);
    expect(await balance(team.key)).toBe(10);
    await revokeApiKey(testDatabase().db, team.prefix);
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/article') }, key: team.key });
    expect(status).toBe(401);
    expect(body.code).toBe('UNAUTHORIZED');
  });
});

describe('credits', () => {
  it('answers 402 at zero credits, before any job starts', async () => {
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/article') }, key: inject('brokeKey') });
    expect(status).toBe(402);
    expect(body).toMatchObject({ success: false, code: 'INSUFFICIENT_CREDITS' });
  });

  it('leaves no job behind when it refuses a scrape: too few credits, or a private address', async () => {
    const broke = await freshTeam(0);
    const poor = await api('/v1/scrape', { body: { url: fixture('/article') }, key: broke.key });
    expect(poor.body).toMatchObject({ success: false, code: 'INSUFFICIENT_CREDITS' });
    const funded = await freshTeam(10);
    const blocked = await api('/v1/scrape', { body: { url: 'http://10.1.2.3/' }, key: funded.key });
    expect(blocked.body).toMatchObject({ success: false, code: 'URL_BLOCKED' });
    // Both refused: the private address's refusal is the answer, not the balance.
    const both = await api('/v1/scrape', { body: { url: 'http://10.1.2.3/' }, key: broke.key });
    expect(both.body).toMatchObject({ success: false, code: 'URL_BLOCKED' });
    expect(await testDatabase().db.select().from(jobs).where(inArray(jobs.teamId, [broke.teamId, funded.teamId]))).toEqual([]);
    expect(await balance(funded.key)).toBe(10);
  });

  it('charges one ledger row per scrape, and the balance drops by creditsUsed', async () => {
    const team = await freshTeam(100);
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/article') }, key: team.key });
    expect(status).toBe(200);
    const { scrapeId, creditsUsed } = body.data.metadata;
    expect(creditsUsed).toBe(1);
    const charges = await chargesOf(scrapeId);
    expect(charges).toEqual([expect.objectContaining({ teamId: team.teamId, amount: -1, operation: 'scrape', idempotencyKey: `scrape:${scrapeId}` })]);
    expect(await balance(team.key)).toBe(100 - creditsUsed);
  });

  it('charges 2 for a browser render', async () => {
    const team = await freshTeam(100);
    const { body } = await api('/v1/scrape', { body: { url: fixture('/article'), engine: 'browser' }, key: team.key });
    expect(body.data.metadata).toMatchObject({ renderer: 'browser', creditsUsed: 2 });
    expect((await chargesOf(body.data.metadata.scrapeId)).map((c) => c.amount)).toEqual([-2]);
    expect(await balance(team.key)).toBe(98);
  });

  it('charges nothing for a failed scrape', async () => {
    const team = await freshTeam(100);
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/redirect-loop') }, key: team.key });
    expect(status).toBe(502);
    expect(body.code).toBe('SCRAPE_CONNECTION_ERROR');
    const timeout = await api('/v1/scrape', { body: { url: fixture('/slow?ms=5000'), timeout: 1000 }, key: team.key });
    expect(timeout.status).toBe(408);
    const rows = await testDatabase().db.select().from(ledger).where(eq(ledger.teamId, team.teamId));
    expect(rows.map((r) => r.operation)).toEqual(['grant']);
    expect(await balance(team.key)).toBe(100);
  });

  it('refuses a scrape the balance cannot cover (1 credit, browser render needs 2)', async () => {
    const team = await freshTeam(1);
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/article'), engine: 'browser' }, key: team.key });
    expect(status).toBe(402);
    expect(body.code).toBe('INSUFFICIENT_CREDITS');
    expect(await balance(team.key)).toBe(1);
  });
});

describe('rate limit', () => {
  let limited: Running & { url: string };

  beforeAll(async () => {
    limited = await startInProcessApi(inProcessConfig({ RATE_LIMIT_PER_MINUTE: '3' }));
  });
  afterAll(() => limited.close());

  it('answers 429 RATE_LIMITED with Retry-After once a key exceeds RATE_LIMIT_PER_MINUTE', async () => {
    const team = await freshTeam(5);
    for (let i = 0; i < 3; i++) expect(await balance(team.key, limited.url)).toBe(5);
    const { status, headers, body } = await api('/v1/team/credit-usage', { key: team.key, baseUrl: limited.url });
    expect(status).toBe(429);
    expect(body).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    const retryAfter = Number(headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another key has its own budget.
    const other = await freshTeam(5);
    expect(await balance(other.key, limited.url)).toBe(5);
  });
});

describe('no rate limit', () => {
  it('counts nothing for a team without one: no RateLimit fields and no window rows', async () => {
    // The shared stack runs with RATE_LIMIT_PER_MINUTE=0 and no team-wide limit.
    const team = await freshTeam(5);
    const { status, headers } = await api('/v1/team/credit-usage', { key: team.key });
    expect(status).toBe(200);
    expect(headers.get('ratelimit-limit')).toBeNull();
    const buckets = [`key:${team.prefix}`, `team:${team.teamId}`];
    expect(await testDatabase().db.select().from(rateLimitWindows).where(inArray(rateLimitWindows.bucket, buckets))).toEqual([]);
  });
});

describe('an activity retried after it wrote the page and its charge', () => {
  const prefix = `wcs-retry-${process.pid}`;
  /** Attempts seen per activity type. */
  const attempts: Record<string, number[]> = {};
  /** Activities failed once after their work committed: a page scrape, and both steps of a search. */
  const INJECTED = ['scrapePageHttp', 'findSearchCandidates', 'finishSearch'];
  let apiServer: Running & { url: string };
  let workers: Running;

  /** Lets the first attempt finish (rows and charge committed), then fails it. */
  const failFirstAttemptAfterWriting: ActivityInterceptorsFactory = (ctx) => ({
    inbound: {
      async execute(input, next) {
        const result = await next(input);
        if (INJECTED.includes(ctx.info.activityType)) {
          (attempts[ctx.info.activityType] ??= []).push(ctx.info.attempt);
          if (ctx.info.attempt === 1) throw ApplicationFailure.retryable('injected failure after the page was stored', 'INJECTED_RETRY');
        }
        return result;
      },
    },
  });

  beforeAll(async () => {
    const config = inProcessConfig({ TEMPORAL_TASK_QUEUE_PREFIX: prefix, WORKER_QUEUES: 'http' });
    workers = await startInProcessWorkers(config, { interceptors: { activity: [failFirstAttemptAfterWriting] } });
    apiServer = await startInProcessApi(config);
  });
  afterAll(async () => {
    await apiServer?.close();
    await workers?.close();
  });

  it('stores one page and one ledger row', async () => {
    const team = await freshTeam(100);
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/article') }, key: team.key, baseUrl: apiServer.url });
    expect(status).toBe(200);
    expect(body.data.markdown).toContain('A Short History of Lighthouses');
    const { scrapeId, creditsUsed } = body.data.metadata;
    expect(attempts.scrapePageHttp).toEqual([1, 2]);
    expect(await chargesOf(scrapeId)).toHaveLength(1);
    expect(await testDatabase().db.select().from(pages).where(eq(pages.jobId, scrapeId))).toHaveLength(1);
    expect(await balance(team.key)).toBe(100 - creditsUsed);
  });

  it('charges a search once when its steps are retried after committing', async () => {
    const team = await freshTeam(100);
    // The local index has the lighthouse article at least: the scrape above stored it.
    const { status, body } = await api('/v1/search', { body: { query: 'lighthouses', limit: 1, scrapeOptions: { formats: ['markdown'] } }, key: team.key, baseUrl: apiServer.url });
    expect(status).toBe(200);
    expect(body.data).toHaveLength(1);
    expect(body.data[0].markdown.length).toBeGreaterThan(0);
    expect(attempts.findSearchCandidates).toEqual([1, 2]);
    expect(attempts.finishSearch).toEqual([1, 2]);
    expect((await chargesOf(body.id)).map((c) => c.amount)).toEqual([-5]);
    const ranked = await testDatabase().db.select().from(searchResults).where(and(eq(searchResults.jobId, body.id), isNotNull(searchResults.rank)));
    expect(ranked).toHaveLength(1);
    expect(await balance(team.key)).toBe(95);
  });
});

