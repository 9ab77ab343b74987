import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCrawlSite, startExternalSite, type CrawlSite } from '../fixtures/crawl-site';
import type { FixtureServer } from '../fixtures/fixture-server';
import { api } from '../helpers/api';
import { allDocuments, expectedCrawl, fixtureRobotsBlock, waitForCrawl } from '../helpers/crawl';

/** Pages of the fixture that fail whatever happens (until healed). */
const ALWAYS_FAILING = ['/loop/a', '/always-500', '/heal'];

let site: CrawlSite;
let external: FixtureServer;

beforeAll(async () => {
  const [host, otherHost] = inject('siteHosts');
  external = await startExternalSite(otherHost!);
  site = await startCrawlSite(host!, { pagesPerSection: 60, externalUrl: `${external.url}/ext/page` });
});
afterAll(async () => {
  await site?.close();
  await external?.close();
});

const pathOf = (url: string) => new URL(url).pathname.replace(/\/+$/, '') || '/';

async function crawl(body: Record<string, unknown>): Promise<{ id: string; status: any }> {
  const started = await api('/v1/crawl', { body: { url: site.url, ...body } });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  expect(started.body).toEqual({ success: true, id: expect.any(String), url: `${inject('apiUrl')}/v1/crawl/${started.body.id}` });
  return { id: started.body.id, status: await waitForCrawl(started.body.id) };
}

describe('POST /v1/crawl: scope and politeness', () => {
  it('reaches exactly the pages within maxDepth, and reports errors and robots-blocked URLs', async () => {
    const { id, status } = await crawl({ maxDepth: 2, ignoreSitemap: true, scrapeOptions: { formats: ['markdown', 'links'] } });
    const expected = expectedCrawl(site.linksOf, { start: '/', maxDepth: 2, isBlocked: fixtureRobotsBlock });
    const completedPaths = [...expected.reached.keys()].filter((p) => !ALWAYS_FAILING.includes(p));

    expect(status).toMatchObject({ success: true, status: 'completed', completed: completedPaths.length, failed: ALWAYS_FAILING.length, total: expected.reached.size });
    const docs = await allDocuments(id);
    expect(docs.map((d) => pathOf(d.metadata.sourceURL)).sort()).toEqual(completedPaths.sort());
    expect(status.creditsUsed).toBe(completedPaths.length);
    for (const doc of docs) {
      expect(doc.metadata).toMatchObject({ statusCode: 200, renderer: 'http', creditsUsed: 1 });
      expect(Object.keys(doc).sort()).toEqual(['links', 'markdown', 'metadata']);
    }
    expect(docs.find((d) => pathOf(d.metadata.sourceURL) === '/docs/p1').markdown).toContain('# Page /docs/p1');

    const errors = await api(`/v1/crawl/${id}/errors`);
    expect(errors.status).toBe(200);
    expect(errors.body.robotsBlocked.map(pathOf).sort()).toEqual([...expected.blocked].sort());
    const byPath = Object.fromEntries(errors.body.errors.map((e: any) => [pathOf(e.url), e]));
    expect(Object.keys(byPath).sort()).toEqual([...ALWAYS_FAILING].sort());
    expect(byPath['/always-500']).toMatchObject({ code: 'SCRAPE_SITE_ERROR', attempts: 3, error: 'The site answered HTTP 500' });
    expect(byPath['/heal']).toMatchObject({ code: 'SCRAPE_SITE_ERROR', attempts: 3 });
    expect(byPath['/loop/a']).toMatchObject({ code: 'SCRAPE_CONNECTION_ERROR', attempts: 1 });
    expect(byPath['/loop/a'].error).toContain('redirected more than 10 times');
    expect(new Date(byPath['/loop/a'].timestamp).getTime()).toBeGreaterThan(0);
    const viaDelete = await api(`/v1/crawl/${id}/errors`, { method: 'DELETE' });
    expect(viaDelete.body).toEqual(errors.body);
  });

  it('retries a page that fails twice and one that asks to come back later', async () => {
    const { id } = await crawl({ maxDepth: 1, ignoreSitemap: true });
    const docs = await allDocuments(id);
    const paths = docs.map((d) => pathOf(d.metadata.sourceURL));
    expect(paths).toContain('/flaky');
    expect(paths).toContain('/busy');
    expect(paths).toContain('/slow');
    expect(site.server.hits.get('/busy')).toBeGreaterThanOrEqual(2);
  });

  it("keeps robots.txt's Crawl-delay, or a longer delay, between requests to a host", async () => {
    const polite = await startCrawlSite(inject('siteHosts')[0]!, { pagesPerSection: 4, crawlDelay: 0.3 });
    try {
      for (const [delay, gapMs] of [[undefined, 300], [0.5, 500]] as const) {
        polite.server.requests.length = 0;
        const started = await api('/v1/crawl', { body: { url: polite.url, limit: 6, maxDepth: 1, ignoreSitemap: true, maxConcurrency: 5, ...(delay && { delay }) } });
        expect(await waitForCrawl(started.body.id)).toMatchObject({ status: 'completed', completed: 6 });
        const times = polite.server.requests.filter((r) => r.path !== '/robots.txt').map((r) => r.at);
        expect(times).toHaveLength(6);
        const gaps = times.slice(1).map((at, i) => at - times[i]!);
        expect(Math.min(...gaps), `gaps ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(gapMs - 10);
      }
    } finally {
      await polite.close();
    }
  });

  it('never exceeds the limit', async () => {
    const { id, status } = await crawl({ limit: 17, maxConcurrency: 8 });
    expect(status.total).toBe(17);
    expect(status.completed + status.failed).toBe(17);
    expect((await allDocuments(id)).length).toBe(status.completed);
  });

  it('honours includePaths and excludePaths', async () => {
    const { id } = await crawl({ maxDepth: 3, ignoreSitemap: true, includePaths: ['^/docs'], excludePaths: ['^/docs/p1/'] });
    const expected = expectedCrawl(site.linksOf, {
      start: '/',
      maxDepth: 3,
      isBlocked: fixtureRobotsBlock,
      admits: (p) => /^\/docs/.test(p) && !/^\/docs\/p1\//.test(p),
    });
    const paths = (await allDocuments(id)).map((d) => pathOf(d.metadata.sourceURL)).sort();
    expect(paths).toEqual([...expected.reached.keys()].sort());
    expect(paths.every((p) => p === '/' || p.startsWith('/docs'))).toBe(true);
    expect(paths).not.toContain('/docs/p1/p1');
  });

  it('stays under the start path unless crawlEntireDomain', async () => {
    const under = await api('/v1/crawl', { body: { url: `${site.url}/blog`, maxDepth: 2, ignoreSitemap: true } });
    const underPaths = (await (async () => (await waitForCrawl(under.body.id), allDocuments(under.body.id)))()).map((d) => pathOf(d.metadata.sourceURL));
    expect(underPaths.length).toBeGreaterThan(3);
    expect(underPaths.every((p) => p === '/blog' || p.startsWith('/blog/'))).toBe(true);

    const entire = await api('/v1/crawl', { body: { url: `${site.url}/blog`, maxDepth: 1, ignoreSitemap: true, crawlEntireDomain: true } });
    await waitForCrawl(entire.body.id);
    expect((await allDocuments(entire.body.id)).map((d) => pathOf(d.metadata.sourceURL))).toContain('/docs');
  });

  it('follows external links only when allowed', async () => {
    const closed = await crawl({ maxDepth: 1, ignoreSitemap: true, includePaths: ['^/(shop)?$'] });
    const closedUrls = (await allDocuments(closed.id)).map((d) => d.metadata.sourceURL);
    expect(closedUrls.some((u) => u.startsWith(external.url))).toBe(false);

    const open = await crawl({ url: `${site.url}/shop`, maxDepth: 1, ignoreSitemap: true, allowExternalLinks: true });
    const openUrls = (await allDocuments(open.id)).map((d) => d.metadata.sourceURL);
    expect(openUrls).toContain(`${external.url}/ext/page`);
  });

  it('discovers orphan pages from the sitemap index (gzip part included) unless ignoreSitemap', async () => {
    const withMaps = await crawl({ maxDepth: 1 });
    const mapped = (await allDocuments(withMaps.id)).map((d) => pathOf(d.metadata.sourceURL));
    for (const orphan of site.orphanPaths) expect(mapped).toContain(orphan);

    const without = await crawl({ maxDepth: 1, ignoreSitemap: true });
    const plain = (await allDocuments(without.id)).map((d) => pathOf(d.metadata.sourceURL));
    for (const orphan of site.orphanPaths) expect(plain).not.toContain(orphan);
  });
});

describe('GET /v1/crawl/:id', () => {
  it('paginates with skip/limit and a next link that is absent on the last page', async () => {
    const { id, status } = await crawl({ maxDepth: 2, ignoreSitemap: true });
    const first = await api(`/v1/crawl/${id}?limit=5`);
    expect(first.body.data).toHaveLength(5);
    expect(first.body.next).toBe(`${inject('apiUrl')}/v1/crawl/${id}?skip=5&limit=5`);
    const last = await api(`/v1/crawl/${id}?skip=${status.completed - 2}&limit=5`);
    expect(last.body.data).toHaveLength(2);
    expect('next' in last.body).toBe(false);
    expect(new Date(status.expiresAt).getTime()).toBeGreaterThan(Date.now());
  });

  it('serves the crawl graph as JSON and as Graphviz', async () => {
    const { id } = await crawl({ maxDepth: 1, ignoreSitemap: true });
    const graph = await api(`/v1/crawl/${id}/graph`);
    expect(graph.status).toBe(200);
    const nodes = Object.fromEntries(graph.body.nodes.map((n: any) => [pathOf(n.url), n]));
    expect(nodes['/']).toMatchObject({ depth: 0, status: 'scraped', statusCode: 200 });
    expect(nodes['/docs']).toMatchObject({ depth: 1, status: 'scraped' });
    expect(nodes['/always-500']).toMatchObject({ status: 'failed' });
    const edgeSet = new Set(graph.body.edges.map((e: any) => `${pathOf(e.from)} -> ${pathOf(e.to)}`));
    expect(edgeSet.has('/ -> /docs')).toBe(true);
    expect(edgeSet.has('/docs -> /')).toBe(true);
    const dot = await api(`/v1/crawl/${id}/graph?format=dot`);
    expect(dot.headers.get('content-type')).toContain('text/vnd.graphviz');
    expect(dot.body).toMatch(/^digraph crawl \{/);
    expect(dot.body).toContain(`"${site.url}/" -> "${site.url}/docs";`);
  });

  it("hides a team's crawls from other teams", async () => {
    const { id } = await crawl({ maxDepth: 0, ignoreSitemap: true });
    for (const path of [`/v1/crawl/${id}`, `/v1/crawl/${id}/errors`, `/v1/crawl/${id}/graph`]) {
      const other = await api(path, { key: inject('brokeKey') });
      expect(other.status).toBe(404);
      expect(other.body.code).toBe('NOT_FOUND');
    }
    expect((await api(`/v1/crawl/${id}`, { method: 'DELETE', key: inject('brokeKey') })).status).toBe(404);
    expect((await api('/v1/crawl/not-a-uuid')).status).toBe(404);
  });
});
