import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT } from '../../src/config/paths';
import { EXTRACT_FIXTURES } from '../fixtures/extract-pages';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { fixture } from '../helpers/api';
import { callTool, connectStdio, jsonOf, texts, type Connected } from '../helpers/mcp-client';

/** A word only this file's site has, so search finds its page. */
const WORD = 'samphirefirecrawlmcp';

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><main><h1>${title}</h1>${body}</main></body></html>`;

let site: FixtureServer;
let mcp: Connected;

beforeAll(async () => {
  site = await startFixtureServer(
    {
      '/': (_req, res) => html(res, page('Salt marsh notes', `<p>Marsh ${WORD} grows where the tide reaches twice a day.</p><a href="/birds">Birds</a> <a href="/plants">Plants</a>`)),
      '/birds': (_req, res) => html(res, page('Marsh birds', '<p>Redshank and curlew feed on the mudflats at low water.</p><a href="/">Home</a>')),
      '/plants': (_req, res) => html(res, page('Marsh plants', '<p>Sea lavender flowers purple in late summer along the creeks.</p><a href="/">Home</a>')),
      // Off the crawl's path: a dated article, for news search.
      '/news/spring-tide': (_req, res) =>
        html(res, page('Spring tide floods the marsh', `<article><p>The spring tide covered the ${WORD} beds this morning.</p></article>`, '<meta property="article:published_time" content="2026-09-20T05:30:00Z">')),
    },
    inject('siteHosts')[0],
  );
  // firecrawl-mcp as its README configures it for a self-hosted Firecrawl, unmodified.
  mcp = await connectStdio(process.execPath, [path.join(ROOT, 'node_modules', 'firecrawl-mcp', 'dist', 'index.js')], {
    FIRECRAWL_API_URL: inject('apiUrl'),
    FIRECRAWL_API_KEY: inject('apiKey'),
  });
});
afterAll(async () => {
  await mcp?.close();
  await site?.close();
});

/** The result's JSON, after checking it is not an error (which would show firecrawl-mcp's message). */
function ok(result: Awaited<ReturnType<typeof callTool>>): any {
  expect(result.isError, texts(result).join('\n')).toBeFalsy();
  return jsonOf(result);
}

describe('firecrawl-mcp 3.26 (unmodified, FIRECRAWL_API_URL pointing here) driven by the MCP SDK client', () => {
  it('firecrawl_scrape returns the page as markdown', async () => {
    const doc = ok(await callTool(mcp, 'firecrawl_scrape', { url: `${site.url}/`, formats: ['markdown'] }));
    expect(doc.markdown).toContain(`Marsh ${WORD} grows where the tide reaches`);
    expect(doc.metadata).toMatchObject({ title: 'Salt marsh notes', statusCode: 200 });
  });

  it('firecrawl_scrape with formats ["json"] and a schema extracts structured data (firecrawl-mcp 3.26 routes extraction here)', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, sku: { type: 'string' } }, required: ['name'] };
    const doc = ok(await callTool(mcp, 'firecrawl_scrape', { url: fixture('/extract/product-jsonld'), formats: ['json'], jsonOptions: { schema } }));
    expect(doc.json).toEqual({ name: EXTRACT_FIXTURES.product.name, sku: EXTRACT_FIXTURES.product.sku });
  });

  it('firecrawl_scrape with formats ["markdown", "changeTracking"] compares with the previous copy', async () => {
    const url = `${site.url}/birds`;
    const first = ok(await callTool(mcp, 'firecrawl_scrape', { url, formats: ['markdown', 'changeTracking'] }));
    expect(first.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });
    const second = ok(await callTool(mcp, 'firecrawl_scrape', { url, formats: ['markdown', 'changeTracking'] }));
    expect(second.changeTracking).toMatchObject({ changeStatus: 'same', previousScrapeAt: expect.any(String) });
  });

  it('firecrawl_scrape with formats ["query"] and queryOptions answers from the page', async () => {
    for (const mode of ['freeform', 'directQuote']) {
      const doc = ok(await callTool(mcp, 'firecrawl_scrape', { url: `${site.url}/birds`, formats: ['query'], queryOptions: { prompt: 'What feeds on the mudflats?', mode } }));
      expect(doc.answer).toBe('Redshank and curlew feed on the mudflats at low water.');
    }
  });

  it('firecrawl_scrape with formats ["audio"] comes back as an error that says this deployment does not produce audio', async () => {
    const result = await callTool(mcp, 'firecrawl_scrape', { url: `${site.url}/plants`, formats: ['audio'] });
    expect(result.isError).toBe(true);
    expect(texts(result).join('\n')).toContain('the "audio" format is not served here');
  });

  it('firecrawl_scrape with formats ["branding"] reads the rendered page', async () => {
    const doc = ok(await callTool(mcp, 'firecrawl_scrape', { url: `${site.url}/plants`, formats: ['branding'] }));
    expect(doc.branding.colors).toMatchObject({ textPrimary: '#000000' });
    expect(doc.branding.typography.fontSizes.h1).toBe('32px');
  });

  it('firecrawl_extract answers with its own pointer to firecrawl_scrape, without calling the API', async () => {
    const result = await callTool(mcp, 'firecrawl_extract', { urls: [fixture('/extract/product-jsonld')], prompt: 'the product name' });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toContain('firecrawl_extract is deprecated');
    expect(texts(result)[0]).toContain('call firecrawl_scrape once per URL with formats: ["json"]');
  });

  it("firecrawl_map lists the site's URLs", async () => {
    const { links } = ok(await callTool(mcp, 'firecrawl_map', { url: `${site.url}/`, sitemap: 'skip' }));
    expect(links.map((l: { url: string }) => new URL(l.url).pathname)).toEqual(expect.arrayContaining(['/', '/birds', '/plants']));
  });

  it('firecrawl_search finds the scraped page in data.web', async () => {
    // firecrawl-mcp passes the whole /v2/search body on: `{success, data: {web, ...}}`.
    const { success, data } = ok(await callTool(mcp, 'firecrawl_search', { query: WORD, limit: 5 }));
    expect(success).toBe(true);
    expect(data.web).toContainEqual(expect.objectContaining({ url: `${site.url}/`, title: 'Salt marsh notes' }));
  });

  it('firecrawl_search with sources web and news finds the dated article in data.news', async () => {
    ok(await callTool(mcp, 'firecrawl_scrape', { url: `${site.url}/news/spring-tide` }));
    const { data } = ok(await callTool(mcp, 'firecrawl_search', { query: WORD, limit: 5, sources: ['web', 'news'] }));
    expect(data.news).toEqual([expect.objectContaining({ url: `${site.url}/news/spring-tide`, date: '2026-09-20T05:30:00Z' })]);
    expect(data.web.map((r: { url: string }) => r.url)).toContain(`${site.url}/news/spring-tide`);
  });

  it('firecrawl_crawl waits for the crawl and firecrawl_check_crawl_status reads it again', async () => {
    const crawled = ok(await callTool(mcp, 'firecrawl_crawl', { url: `${site.url}/`, limit: 5, sitemap: 'skip', scrapeOptions: { formats: ['markdown'] } }));
    expect(crawled).toMatchObject({ status: 'completed', completed: 3, total: 3 });
    expect(crawled.data.map((d: any) => new URL(d.metadata.sourceURL).pathname).sort()).toEqual(['/', '/birds', '/plants']);
    expect(crawled.data.find((d: any) => d.metadata.sourceURL.endsWith('/plants')).markdown).toContain('Sea lavender flowers purple');

    const status = ok(await callTool(mcp, 'firecrawl_check_crawl_status', { id: crawled.id }));
    expect(status).toMatchObject({ id: crawled.id, status: 'completed', completed: 3, total: 3 });
    expect(status.data).toHaveLength(3);
  });
});
