import Firecrawl from '@mendable/firecrawl-js';
import { FirecrawlTools } from 'firecrawl-aisdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { startFakeSearxng, startFakeSerper, type FakeBehaviour, type FakeProvider } from '../helpers/fake-search-providers';
import { startOwnStack } from '../helpers/own-stack';
import type { Stack } from '../helpers/stack';

/**
 * v2 search's sources through the remote providers: its own API and worker with the chain
 * searxng → serper, local servers speaking their protocols, results pointing at a local site.
 */
let site: FixtureServer;
let searxng: FakeProvider;
let serper: FakeProvider;
let stack: Stack;
const SERPER_KEY = 'serper-v2-key';
const at = (p: string) => `${site.url}${p}`;

/** searxng answers the news category with the harbour story, the web with the guide; it is down for "storm". */
function searxngBehaviour(query: string): FakeBehaviour {
  if (query === 'storm warning') return { status: 500 };
  return [{ url: at('/harbour-guide'), title: 'Harbour guide', snippet: 'Moorings and tides.' }];
}

beforeAll(async () => {
  site = await startFixtureServer(
    {
      '/harbour-guide': (_req, res) => html(res, '<html><head><title>Harbour guide</title></head><body><main><h1>Harbour guide</h1><p>Moorings and tides.</p></main></body></html>'),
      '/storm-story': (_req, res) => html(res, '<html><head><title>Storm closes harbour</title></head><body><main><h1>Storm closes harbour</h1></main></body></html>'),
    },
    inject('siteHosts')[1],
  );
  searxng = await startFakeSearxng(searxngBehaviour);
  serper = await startFakeSerper(SERPER_KEY, () => [{ url: at('/storm-story'), title: 'Storm closes harbour', snippet: 'The harbour closed at noon.' }]);
  stack = await startOwnStack('v2-search', {
    allowPrivateHosts: [new URL(site.url).host],
    env: { SEARCH_PROVIDER: 'searxng,serper', SEARXNG_URL: searxng.url, SERPER_API_KEY: SERPER_KEY, SERPER_URL: serper.url },
  });
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([searxng?.close(), serper?.close(), site?.close()]);
});

describe('v2 search sources through SearXNG and Serper', () => {
  it('asks SearXNG for the news category for news and its general results for the web', async () => {
    const client = new Firecrawl({ apiKey: inject('apiKey'), apiUrl: stack.apiUrl });
    const results = await client.search('harbour tides', { sources: ['web', 'news'], limit: 3 });
    expect(results.web).toEqual([expect.objectContaining({ url: at('/harbour-guide'), title: 'Harbour guide', description: 'Moorings and tides.', position: 1 })]);
    expect(results.news).toEqual([expect.objectContaining({ url: at('/harbour-guide'), title: 'Harbour guide', snippet: 'Moorings and tides.', position: 1 })]);
    const asked = searxng.requests.filter((r) => r.query === 'harbour tides');
    // One search per source, each reading SearXNG's pages until one comes back empty.
    expect(asked.filter((r) => r.params.categories === 'news').map((r) => r.params.pageno)).toEqual(['1', '2']);
    expect(asked.filter((r) => r.params.categories === undefined).map((r) => r.params.pageno)).toEqual(['1', '2']);
  });

  it('falls back to Serper’s news endpoint when SearXNG fails', async () => {
    const client = new Firecrawl({ apiKey: inject('apiKey'), apiUrl: stack.apiUrl });
    const results = await client.search('storm warning', { sources: ['news'], limit: 2 });
    expect(results.news).toEqual([expect.objectContaining({ url: at('/storm-story'), title: 'Storm closes harbour', snippet: 'The harbour closed at noon.' })]);
    expect(results.web).toBeUndefined();
    expect(serper.requests.filter((r) => r.query === 'storm warning').map((r) => r.path)).toEqual(['/news']);
  });

  it("passes a source object's tbs and location (firecrawl-aisdk's search tool) to Serper; SearXNG says it ignored the location", async () => {
    const tools = FirecrawlTools({ apiKey: inject('apiKey'), apiUrl: stack.apiUrl });
    const call = { toolCallId: 'call-1', messages: [] };
    const stormy = (await tools.search.execute!({ query: 'storm warning', sources: [{ type: 'news', tbs: 'qdr:w', location: 'Hamburg,Germany' }] }, call)) as { news?: { url: string }[] };
    expect(stormy.news).toEqual([expect.objectContaining({ url: at('/storm-story') })]);
    expect(serper.requests.filter((r) => r.query === 'storm warning').at(-1)).toMatchObject({ path: '/news', params: { tbs: 'qdr:w', location: 'Hamburg,Germany' } });

    const calm = (await tools.search.execute!({ query: 'harbour tides', sources: [{ type: 'web', location: 'Hamburg,Germany' }] }, call)) as { web?: { url: string }[]; warning?: string };
    expect(calm.web).toEqual([expect.objectContaining({ url: at('/harbour-guide') })]);
    expect(calm.warning).toContain('searxng cannot search from a location; location was ignored.');
  });
});
