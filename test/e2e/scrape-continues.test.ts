import { setTimeout as sleep } from 'node:timers/promises';
import Firecrawl from '@mendable/firecrawl-js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { creditBalance } from '../../src/credits/ledger';
import { jobs } from '../../src/db/schema';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { createTeamWithKey } from '../helpers/accounts';
import { api } from '../helpers/api';
import { testDatabase } from '../helpers/db';

/** How long the slow pages take to answer: past the requests' 2 s timeout, within firecrawl-js's first resume (5 s). */
const SLOW_MS = 4_000;
const TIMEOUT_MS = 2_000;

let site: FixtureServer;
const slowPage = (name: string) => async (_req: unknown, res: Parameters<typeof html>[0]) => {
  await sleep(SLOW_MS);
  html(res, `<html><head><title>${name}</title></head><body><main><h1>${name}</h1><p>The ${name} page took its time, and was worth it.</p></main></body></html>`);
};

beforeAll(async () => {
  site = await startFixtureServer({ '/slow-sdk': slowPage('sdk'), '/slow-v2': slowPage('v2'), '/slow-v1': slowPage('v1'), '/slow-other': slowPage('other') }, inject('siteHosts')[0]!);
});
afterAll(() => site?.close());

const db = () => testDatabase().db;
const scrapeJobs = async (teamId: string) => (await db().select({ status: jobs.status }).from(jobs).where(eq(jobs.teamId, teamId))).filter(Boolean);

describe('a scrape slower than its timeout continues', () => {
  it("firecrawl-js 4.42's scrape() gets the document through its own resume: one fetch, one charge, one job", async () => {
    const team = await createTeamWithKey(db(), `continues-sdk-${process.pid}`, 10);
    const firecrawl = new Firecrawl({ apiKey: team.key, apiUrl: inject('apiUrl') });
    const doc = await firecrawl.scrape(`${site.url}/slow-sdk`, { formats: ['markdown'], timeout: TIMEOUT_MS });
    expect(doc.markdown).toContain('The sdk page took its time, and was worth it.');
    expect(site.hits.get('/slow-sdk')).toBe(1);
    expect(await creditBalance(db(), team.teamId)).toBe(9);
    expect(await scrapeJobs(team.teamId)).toEqual([{ status: 'completed' }]);
  });

  it('answers /v2/scrape 408 processing_continues with Retry-After at the timeout, then the same request gets the document', async () => {
    const team = await createTeamWithKey(db(), `continues-v2-${process.pid}`, 10);
    const body = { url: `${site.url}/slow-v2`, formats: ['markdown'], timeout: TIMEOUT_MS };
    const first = await api('/v2/scrape', { key: team.key, body });
    // Answered before the page was stored (stored, it would be a 200): a wall-time bound here
    // failed on a loaded machine whose answer at the 2 s timeout took past the page's 4 s.
    expect(first.status).toBe(408);
    expect(first.body).toEqual({
      success: false,
      code: 'SCRAPE_TIMEOUT',
      error: expect.stringMatching(/still being scraped\. Send the same request again/),
      details: { state: 'processing_continues', retryAfterSeconds: expect.any(Number), scrapeId: expect.any(String) },
    });
    expect(Number(first.headers.get('retry-after'))).toBe(first.body.details.retryAfterSeconds);
    expect(first.body.details.retryAfterSeconds).toBeGreaterThanOrEqual(5);

    // As a client does: wait the Retry-After it was given, and send the same request again while
    // it answers 408 (a loaded machine may still be scraping after the first wait).
    let again = first;
    for (let attempt = 0; attempt < 5 && again.status === 408; attempt++) {
      await sleep(Number(again.headers.get('retry-after')) * 1000);
      again = await api('/v2/scrape', { key: team.key, body });
    }
    expect(again.status).toBe(200);
    expect(again.body.data.markdown).toContain('The v2 page took its time');
    expect(again.body.data.metadata.scrapeId).toBe(first.body.details.scrapeId);
    expect(site.hits.get('/slow-v2')).toBe(1);
    expect(await creditBalance(db(), team.teamId)).toBe(9);
    expect(await scrapeJobs(team.teamId)).toEqual([{ status: 'completed' }]);
  });

  it('keeps /v1/scrape 408; its job completes and is stored, and the same request sent again gets the page', async () => {
    const team = await createTeamWithKey(db(), `continues-v1-${process.pid}`, 10);
    const body = { url: `${site.url}/slow-v1`, formats: ['markdown'], timeout: TIMEOUT_MS };
    const first = await api('/v1/scrape', { key: team.key, body });
    expect(first.status).toBe(408);
    expect(first.body.code).toBe('SCRAPE_TIMEOUT');
    expect(first.body.error).toMatch(/Send the same request again/);
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThanOrEqual(5);
    // The work goes on without anyone waiting: the job completes and its page is stored.
    let status = 'scraping';
    for (let i = 0; i < 100 && status === 'scraping'; i++) {
      await sleep(200);
      [{ status } = { status: 'scraping' }] = await scrapeJobs(team.teamId);
    }
    expect(status).toBe('completed');
    const again = await api('/v1/scrape', { key: team.key, body });
    expect(again.status).toBe(200);
    expect(again.body.data.markdown).toContain('The v1 page took its time');
    expect(site.hits.get('/slow-v1')).toBe(1);
    expect(await creditBalance(db(), team.teamId)).toBe(9);
  });

  it('starts a new scrape for a different request, and for the same request from another team', async () => {
    const team = await createTeamWithKey(db(), `continues-other-${process.pid}`, 10);
    const neighbour = await createTeamWithKey(db(), `continues-neighbour-${process.pid}`, 10);
    // No stored copy may answer them (maxAge 0): each is a scrape of its own.
    const body = { url: `${site.url}/slow-other`, formats: ['markdown'], timeout: TIMEOUT_MS, maxAge: 0 };
    expect((await api('/v2/scrape', { key: team.key, body })).status).toBe(408);
    const different = await api('/v2/scrape', { key: team.key, body: { ...body, timeout: 10_000 } });
    expect(different.status).toBe(200);
    const theirs = await api('/v2/scrape', { key: neighbour.key, body: { ...body, timeout: 10_000 } });
    expect(theirs.status).toBe(200);
    expect(site.hits.get('/slow-other')).toBe(3);
  });
});
