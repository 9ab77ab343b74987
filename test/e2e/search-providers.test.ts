import { and, eq, isNull, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ledger, pages } from '../../src/db/schema';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { api } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { startFakeSearxng, startFakeSerper, type FakeBehaviour, type FakeHit, type FakeProvider } from '../helpers/fake-search-providers';
import { startPrivateServer, type PrivateServer } from '../helpers/private-server';
import { startOwnStack } from '../helpers/own-stack';
import { sampleSum, scrapeMetrics } from '../helpers/prometheus-text';
import type { Stack } from '../helpers/stack';

/**
 * Providers are chosen per worker (SEARCH_PROVIDER), so these tests run their own API and
 * worker with the chain searxng → serper, each a local server speaking that provider's
 * protocol, whose results point at pages of a local site.
 */
let site: FixtureServer;
let privateServer: PrivateServer;
let searxng: FakeProvider;
let serper: FakeProvider;
let stack: Stack;
const SERPER_KEY = 'serper-test-key';
const at = (p: string) => `${site.url}${p}`;

const article = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>${title}</h1>${body}</article></main></body></html>`;
const MIRRORED = `<p>A tide clock shows the state of the tide rather than the hour. Its single hand turns once every twelve hours and twenty-five minutes, the average time between two high waters on most coasts. Set it at high water and it points to the top; six hours later it points to low water at the bottom. The clock cannot know about spring and neap tides, storms or river floods, so it drifts by up to an hour over a fortnight and sailors reset it against the printed tables. Harbours on the Atlantic keep such clocks on the quay for fishermen, who plan their departures around the ebb.</p>
<p>Inside, the movement is an ordinary quartz mechanism geared down slightly. Makers sell them as a kit, and the dial is usually marked high tide, low tide and the hours between.</p>`;

const hit = (p: string, title = 'Lighthouse keeping notes'): FakeHit => ({ url: at(p), title, snippet: 'Notes on lighthouse keeping.' });

/** What each provider does with each query of these tests. */
function searxngBehaviour(query: string): FakeBehaviour {
  switch (query) {
    case 'lighthouse keeping':
      return [hit('/weak'), hit('/medium'), hit('/strong')];
    case 'private redirect':
      return [hit('/to-private'), hit('/tides')];
    case 'broken page':
      return [hit('/missing'), hit('/tides')];
    case 'slow pages':
      return [hit('/slow'), hit('/tides')];
    case 'mirrored article':
      return [hit('/mirror-a'), hit('/mirror-b'), hit('/tides')];
    case 'everything hangs':
      return 'hang';
    default:
      return { status: query === 'searxng down' ? 503 : 500 };
  }
}

function serperBehaviour(query: string): FakeBehaviour {
  if (query === 'searxng down') return [hit('/tides', 'Tide clocks')];
  return query === 'everything hangs' ? 'hang' : { status: 500 };
}

async function search(body: Record<string, unknown>) {
  return api('/v1/search', { body, baseUrl: stack.apiUrl });
}

async function chargesOf(jobId: string): Promise<number[]> {
  const rows = await testDatabase().db.select({ amount: ledger.amount }).from(ledger).where(eq(ledger.jobId, jobId));
  return rows.map((r) => r.amount);
}

const paths = (data: { url: string }[]) => data.map((r) => new URL(r.url).pathname);

beforeAll(async () => {
  privateServer = await startPrivateServer();
  site = await startFixtureServer(
    {
      '/weak': (_q, res) => html(res, article('Harbour news', '<p>The ferry timetable changes in May. The old lighthouse is closed to visitors this year. The fish market moves to the quay.</p>')),
      '/medium': (_q, res) => html(res, article('Coastal walks', '<p>The path passes a lighthouse whose keeping passed to volunteers; the keepers cottage is a café now.</p>')),
      '/strong': (_q, res) =>
        html(
          res,
          article(
            'Lighthouse keeping, a keeper\'s duties',
            '<h2>Keeping the light</h2><p>Lighthouse keeping meant trimming wicks, polishing the lens and winding the clockwork every four hours.</p><h2>Keepers\' log</h2><p>Each lighthouse keeper kept a log of weather, ships and the lamp.</p>',
          ),
        ),
      '/tides': (_q, res) => html(res, article('Tide clocks', '<p>A tide clock turns once per tidal cycle instead of once per twelve hours.</p>')),
      '/mirror-a': (_q, res) => html(res, article('Tide clocks explained', MIRRORED)),
      '/mirror-b': (_q, res) => html(res, article('Tide clocks explained (print version)', MIRRORED)),
      '/to-private': (_q, res) => res.writeHead(302, { location: `${privateServer.url}/admin` }).end(),
      '/slow': (_q, res) => {
        const timer = setTimeout(() => html(res, article('Slow', '<p>Finally.</p>')), 30_000);
        res.on('close', () => clearTimeout(timer));
      },
    },
    inject('siteHosts')[1]!,
  );
  searxng = await startFakeSearxng(searxngBehaviour);
  serper = await startFakeSerper(SERPER_KEY, serperBehaviour);
  stack = await startOwnStack('search', {
    allowPrivateHosts: [new URL(site.url).host],
    env: { SEARCH_PROVIDER: 'searxng,serper', SEARXNG_URL: searxng.url, SERPER_API_KEY: SERPER_KEY, SERPER_URL: serper.url },
  });
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([searxng?.close(), serper?.close(), site?.close(), privateServer?.close()]);
});

describe('search through SearXNG', () => {
  it('keeps the provider\'s order when nothing is scraped, and asks SearXNG in its own terms', async () => {
    const { status, body } = await search({ query: 'lighthouse keeping', limit: 3, lang: 'en', country: 'gb', tbs: 'qdr:w' });
    expect(status).toBe(200);
    expect(paths(body.data)).toEqual(['/weak', '/medium', '/strong']);
    expect(body.data[0]).toEqual({ url: at('/weak'), title: 'Lighthouse keeping notes', description: 'Notes on lighthouse keeping.', score: expect.any(Number) });
    expect(body.data[0].score).toBeGreaterThan(body.data[2].score);
    // The first page held fewer than the 13 candidates wanted, so the second was asked too.
    expect(searxng.requests.filter((r) => r.query === 'lighthouse keeping').map((r) => r.params)).toEqual([
      { q: 'lighthouse keeping', format: 'json', language: 'en-GB', safesearch: '0', time_range: 'week', pageno: '1' },
      { q: 'lighthouse keeping', format: 'json', language: 'en-GB', safesearch: '0', time_range: 'week', pageno: '2' },
    ]);
    expect(await chargesOf(body.id)).toEqual([-6]);
  });

  it('re-ranks scraped pages by content, so a worse provider rank with better content moves up', async () => {
    const { status, body } = await search({ query: 'lighthouse keeping', limit: 3, scrapeOptions: { formats: ['markdown'] } });
    expect(status).toBe(200);
    expect(paths(body.data)[0]).toBe('/strong');
    expect(paths(body.data).sort()).toEqual(['/medium', '/strong', '/weak']);
    expect(body.data[0].markdown).toContain('trimming wicks');
    expect(body.data[0].title).toBe('Lighthouse keeping notes');
    expect(await chargesOf(body.id)).toEqual([-15]);

    // limit 2 scrapes the best 4 candidates: /strong is among them and comes out on top.
    const two = await search({ query: 'lighthouse keeping', limit: 2, scrapeOptions: { formats: ['markdown'] } });
    expect(paths(two.body.data)[0]).toBe('/strong');
    expect(two.body.data).toHaveLength(2);
    expect(await chargesOf(two.body.id)).toEqual([-10]);
  });

  it('drops near-duplicate content, keeping the better-ranked copy', async () => {
    const { body } = await search({ query: 'mirrored article', limit: 5, scrapeOptions: { formats: ['text'] } });
    expect(paths(body.data).sort()).toEqual(['/mirror-a', '/tides']);
  });

  it('drops a result that redirects to a private address, without connecting to it', async () => {
    const { status, body } = await search({ query: 'private redirect', limit: 5, scrapeOptions: { formats: ['markdown'] } });
    expect(status).toBe(200);
    expect(paths(body.data)).toEqual(['/tides']);
    expect(body.warning).toContain(`${at('/to-private')} (URL_BLOCKED)`);
    expect(privateServer.connections()).toBe(0);
  });

  it('drops a result whose page answers an HTTP error, with a warning, and charges only what it returns', async () => {
    const { status, body } = await search({ query: 'broken page', limit: 5, scrapeOptions: { formats: ['markdown'] } });
    expect(status).toBe(200);
    expect(paths(body.data)).toEqual(['/tides']);
    expect(body.warning).toContain(`${at('/missing')} (HTTP 404)`);
    expect(await chargesOf(body.id)).toEqual([-5]);
  });

  it('answers within timeout, dropping pages still loading, with a warning', async () => {
    const started = Date.now();
    const { status, body } = await search({ query: 'slow pages', limit: 5, timeout: 5_000, scrapeOptions: { formats: ['markdown'] } });
    expect(status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000 + 2_000);
    expect(paths(body.data)).toEqual(['/tides']);
    expect(body.warning).toMatch(/Dropped 1 result page\(s\) still loading at the 5000 ms timeout/);
    expect(body.warning).toContain(at('/slow'));
  });
});

describe('search provider failures', () => {
  it('falls back to the next provider of the chain, saying so', async () => {
    const { status, body } = await search({ query: 'searxng down', limit: 5, tbs: 'qdr:d' });
    expect(status).toBe(200);
    expect(paths(body.data)).toEqual(['/tides']);
    expect(body.warning).toMatch(/searxng failed: HTTP 503.*results are from serper/);
    expect(serper.requests.at(-1)!.params).toMatchObject({ q: 'searxng down', gl: 'us', hl: 'en', tbs: 'qdr:d', num: 15 });
  });

  it('answers 502 SEARCH_PROVIDER_ERROR naming each provider when all fail, and keeps serving', async () => {
    const { status, body } = await search({ query: 'everything fails' });
    expect(status).toBe(502);
    expect(body).toMatchObject({ success: false, code: 'SEARCH_PROVIDER_ERROR' });
    expect(body.error).toContain('searxng failed: HTTP 500');
    expect(body.error).toContain('serper failed: HTTP 500');
    expect((await search({ query: 'lighthouse keeping' })).status).toBe(200);
  });

  it('answers 502 SEARCH_PROVIDER_ERROR when the provider hangs past timeout', async () => {
    const started = Date.now();
    const { status, body } = await search({ query: 'everything hangs', timeout: 3_000 });
    expect(status).toBe(502);
    expect(body.code).toBe('SEARCH_PROVIDER_ERROR');
    expect(body.error).toMatch(/searxng did not answer within \d+ ms/);
    expect(Date.now() - started).toBeLessThan(3_000 + 2_000);
  });
});

describe('search indexing on a worker that searches no local index', () => {
  it("runs no indexer there: the pages its searches stored are indexed by the workers that search locally, none by it", async () => {
    const { db } = testDatabase();
    const stored = and(like(pages.url, `${site.url}/%`), eq(pages.searchable, true));
    expect((await db.select({ id: pages.id }).from(pages).where(stored)).length).toBeGreaterThan(0);
    // The shared stack's worker (SEARCH_PROVIDER local) indexes every second; this one, asked, would have taken some.
    const deadline = Date.now() + 15_000;
    while ((await db.select({ id: pages.id }).from(pages).where(and(stored, isNull(pages.searchVector)))).length > 0) {
      if (Date.now() > deadline) throw new Error("this file's pages were not indexed");
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(sampleSum(await scrapeMetrics(stack.workerMetricsUrl), 'wcs_search_pages_indexed_total')).toBe(0);
  });
});
