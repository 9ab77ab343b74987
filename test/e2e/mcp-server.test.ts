import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EXTRACT_FIXTURES } from '../fixtures/extract-pages';
import { html, startFixtureServer, type FixtureRoutes, type FixtureServer } from '../fixtures/fixture-server';
import { api, fixture } from '../helpers/api';
import { callTool, connectHttpMcp, connectWcsMcp, jsonOf, texts, type Connected } from '../helpers/mcp-client';

const TOOL_NAMES = [
  'firecrawl_scrape',
  'firecrawl_map',
  'firecrawl_search',
  'firecrawl_crawl',
  'firecrawl_check_crawl_status',
  'firecrawl_extract',
  'firecrawl_agent',
  'firecrawl_agent_status',
  'firecrawl_credit_usage',
  'screenshot',
  'crawl_graph',
  'retry_failed_pages',
  'firecrawl_monitor_create',
  'firecrawl_monitor_list',
  'firecrawl_monitor_get',
  'firecrawl_monitor_update',
  'firecrawl_monitor_delete',
  'firecrawl_monitor_run',
  'firecrawl_monitor_checks',
  'firecrawl_monitor_check',
];

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/**
 * A small site: a home page linking to two pages and to one that fails (503) until healed; off
 * the crawl's path, a dated article (news) and a page whose lines can change.
 */
async function startSite(host: string, word: string): Promise<{ server: FixtureServer; heal(): void; lines: string[] }> {
  let healed = false;
  const lines = ['The lamp was lit at dusk.', 'The keeper wound the clock.'];
  const server = await startFixtureServer(
    {
      '/': (_req, res) =>
        html(res, page('Harbour almanac', `<p>The ${word} grows by the harbour wall, where the keepers log the tides.</p><a href="/guide">Guide</a> <a href="/tides">Tides</a> <a href="/heal">Heal</a>`)),
      '/guide': (_req, res) => html(res, page('Visitor guide', '<p>Open daily from nine until dusk, the lighthouse museum shows the lamp room.</p><a href="/">Home</a>')),
      '/tides': (_req, res) => html(res, page('Tide tables', '<p>High water at the harbour comes twice a day, about fifty minutes later each day.</p><a href="/">Home</a>')),
      '/heal': (_req, res) => (healed ? html(res, page('Healed page', '<p>This page answers now that the server was repaired.</p>')) : html(res, '<h1>Not yet</h1>', 503)),
      '/news/storm': (_req, res) =>
        html(
          res,
          page('Storm closes the harbour', `<article><p>A storm closed the harbour overnight; the ${word} beds were flooded.</p></article>`, '<meta property="article:published_time" content="2026-10-12T06:00:00Z">'),
        ),
      '/log': (_req, res) => html(res, page('Keeper log', lines.map((l) => `<p>${l}</p>`).join('\n'))),
    },
    host,
  );
  return { server, heal: () => (healed = true), lines };
}

const pathOf = (url: string) => new URL(url).pathname;

const transports: [string, (apiUrl: string, key: string) => Promise<Connected>][] = [
  ['stdio (wcs mcp)', (apiUrl, key) => connectWcsMcp(apiUrl, key)],
  ['Streamable HTTP (/mcp)', connectHttpMcp],
];

describe.each(transports)('our MCP server over %s', (transport, connectTo) => {
  let mcp: Connected;
  let site: Awaited<ReturnType<typeof startSite>>;
  // A word only this site (of this transport's run) has, so search finds its page and no other.
  const word = transport.startsWith('stdio') ? 'quillwortstdio' : 'quillworthttp';

  beforeAll(async () => {
    site = await startSite(inject('siteHosts')[0]!, word);
    mcp = await connectTo(inject('apiUrl'), inject('apiKey'));
  });
  afterAll(async () => {
    await mcp?.close();
    await site?.server.close();
  });

  it('lists the firecrawl-mcp tools and ours, with their input schemas', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    const schemaOf = (name: string) => tools.find((t) => t.name === name)!.inputSchema as { required?: string[]; properties: Record<string, any>; additionalProperties?: unknown };
    const scrape = schemaOf('firecrawl_scrape');
    expect(scrape.required).toEqual(['url']);
    expect(Object.keys(scrape.properties)).toEqual(
      expect.arrayContaining(['url', 'formats', 'jsonOptions', 'screenshotOptions', 'changeTrackingOptions', 'parsers', 'actions', 'storeInCache', 'maxAge', 'proxy', 'contentOffset']),
    );
    expect(scrape.properties.formats.items.enum).toEqual(expect.arrayContaining(['markdown', 'summary', 'changeTracking', 'json', 'screenshot']));
    expect(scrape.properties.formats.items.enum).toContain('branding');
    expect(scrape.properties.formats.items.enum).not.toContain('audio');
    // Only what is served is listed; anything else is refused, not dropped.
    expect(scrape.properties).not.toHaveProperty('redactPII');
    expect(scrape.additionalProperties).toBe(false);
    expect(schemaOf('firecrawl_crawl').properties).toHaveProperty('maxDiscoveryDepth');
    expect(schemaOf('firecrawl_crawl').properties.sitemap.enum).toEqual(['include', 'skip', 'only']);
    expect(schemaOf('firecrawl_crawl').properties.scrapeOptions.additionalProperties).toBe(false);
    expect(Object.keys(schemaOf('firecrawl_search').properties)).toEqual(expect.arrayContaining(['sources', 'categories', 'tbs', 'location', 'scrapeOptions']));
    expect(schemaOf('firecrawl_credit_usage').properties.view.enum).toEqual(['current', 'historical']);
  });

  it('firecrawl_scrape with the query format (queryOptions, as firecrawl-mcp names it) answers with a quote of the page', async () => {
    const { tools } = await mcp.client.listTools();
    const scrape = tools.find((t) => t.name === 'firecrawl_scrape')!.inputSchema as { properties: Record<string, any> };
    expect(scrape.properties.formats.items.enum).toContain('query');
    expect(Object.keys(scrape.properties.queryOptions.properties)).toEqual(['prompt', 'mode']);
    const result = await callTool(mcp, 'firecrawl_scrape', { url: `${site.server.url}/tides`, formats: ['query'], queryOptions: { prompt: 'When is high water at the harbour?', mode: 'directQuote' } });
    expect(result.isError).toBeFalsy();
    const doc = jsonOf(result);
    expect(doc.answer).toBe('High water at the harbour comes twice a day, about fifty minutes later each day.');
    expect(doc.markdown).toBeUndefined();
  });

  it('firecrawl_scrape with the branding format reads the rendered page', async () => {
    const doc = jsonOf(await callTool(mcp, 'firecrawl_scrape', { url: `${site.server.url}/guide`, formats: ['branding'] }));
    // An unstyled page: the browser's default text colour and fonts, and no background of its own.
    expect(doc.branding.colors).toEqual({ textPrimary: '#000000', link: '#0000ee' });
    expect(doc.branding.typography.fontSizes.body).toBe('16px');
  });

  it('firecrawl_credit_usage says what the API says', async () => {
    const result = await callTool(mcp, 'firecrawl_credit_usage');
    const { body } = await api('/v2/team/credit-usage');
    expect(jsonOf(result)).toEqual({ remainingCredits: body.data.remainingCredits, planCredits: body.data.planCredits, billingPeriodStart: null, billingPeriodEnd: null });
  });

  it('firecrawl_scrape returns the page as markdown with its metadata', async () => {
    const result = await callTool(mcp, 'firecrawl_scrape', { url: `${site.server.url}/`, formats: ['markdown', 'links'] });
    expect(result.isError).toBeFalsy();
    expect(texts(result)).toHaveLength(1);
    const doc = jsonOf(result);
    expect(doc.markdown).toContain(`The ${word} grows by the harbour wall`);
    expect(doc.links).toEqual(expect.arrayContaining([`${site.server.url}/guide`, `${site.server.url}/tides`]));
    expect(doc.metadata).toMatchObject({ title: 'Harbour almanac', statusCode: 200, sourceURL: `${site.server.url}/` });
  });

  it('firecrawl_search finds the scraped page in web results', async () => {
    const result = await callTool(mcp, 'firecrawl_search', { query: word, limit: 5 });
    expect(result.isError, texts(result).join('\n')).toBeFalsy();
    const { web } = jsonOf(result);
    expect(web.map((r: { url: string }) => r.url)).toContain(`${site.server.url}/`);
    expect(web[0]).toMatchObject({ url: `${site.server.url}/`, title: 'Harbour almanac' });
  });

  it("firecrawl_search's highlights: the description is the page's passage for the query by default, the page's own description with false", async () => {
    const descriptionOf = async (highlights?: boolean) => {
      const result = await callTool(mcp, 'firecrawl_search', { query: word, limit: 5, ...(highlights !== undefined && { highlights }) });
      expect(result.isError, texts(result).join('\n')).toBeFalsy();
      return (jsonOf(result).web as { url: string; description: string }[]).find((r) => r.url === `${site.server.url}/`)!.description;
    };
    expect(await descriptionOf()).toContain(`The ${word} grows by the harbour wall`);
    expect(await descriptionOf(false)).not.toContain(`The ${word} grows by the harbour wall`);
  });

  it('firecrawl_search with sources web and news answers each: news has only the dated article', async () => {
    await callTool(mcp, 'firecrawl_scrape', { url: `${site.server.url}/news/storm` });
    const result = await callTool(mcp, 'firecrawl_search', { query: word, limit: 5, sources: ['web', { type: 'news' }] });
    expect(result.isError, texts(result).join('\n')).toBeFalsy();
    const { web, news } = jsonOf(result);
    expect(web.map((r: { url: string }) => pathOf(r.url)).sort()).toEqual(['/', '/news/storm']);
    expect(news).toEqual([expect.objectContaining({ url: `${site.server.url}/news/storm`, title: 'Storm closes the harbour', date: '2026-10-12T06:00:00Z', position: 1 })]);
  });

  it("firecrawl_map lists the site's URLs as link objects, named from the pages already scraped", async () => {
    const result = await callTool(mcp, 'firecrawl_map', { url: `${site.server.url}/`, sitemap: 'skip' });
    const { links, total } = jsonOf(result);
    expect(links.map((l: { url: string }) => pathOf(l.url))).toEqual(expect.arrayContaining(['/', '/guide', '/tides', '/heal']));
    expect(links).toContainEqual(expect.objectContaining({ url: `${site.server.url}/`, title: 'Harbour almanac' }));
    expect(total).toBe(links.length);
  });

  it('firecrawl_crawl, firecrawl_check_crawl_status, crawl_graph and retry_failed_pages work one crawl through', async () => {
    const crawled = await callTool(mcp, 'firecrawl_crawl', {
      url: `${site.server.url}/`,
      limit: 10,
      sitemap: 'skip',
      maxDiscoveryDepth: 1,
      crawlEntireDomain: true,
      allowSubdomains: false,
      ignoreQueryParameters: true,
      scrapeOptions: { formats: ['markdown', 'links'], onlyMainContent: true, maxAge: 0 },
    });
    expect(crawled.isError, texts(crawled).join('\n')).toBeFalsy();
    const status = jsonOf(crawled);
    expect(status).toMatchObject({ status: 'completed', total: 4, completed: 3, failed: 1 });
    expect(status.data.map((d: any) => pathOf(d.metadata.sourceURL)).sort()).toEqual(['/', '/guide', '/tides']);
    const tides = status.data.find((d: any) => pathOf(d.metadata.sourceURL) === '/tides');
    expect(tides.markdown).toContain('High water at the harbour');
    expect(tides.links).toEqual([`${site.server.url}/`]);
    expect(tides.metadata).toMatchObject({ cacheState: 'miss' });
    const id: string = status.id;

    const second = jsonOf(await callTool(mcp, 'firecrawl_check_crawl_status', { id, skip: 1 }));
    expect(second).toMatchObject({ id, status: 'completed', offset: 1 });
    expect(second.data).toEqual(status.data.slice(1));

    const graph = jsonOf(await callTool(mcp, 'crawl_graph', { id }));
    expect(graph.nodes.map((n: { url: string }) => pathOf(n.url)).sort()).toEqual(['/', '/guide', '/heal', '/tides']);
    expect(graph.nodes.find((n: { url: string }) => pathOf(n.url) === '/heal')).toMatchObject({ status: 'failed' });
    expect(graph.edges).toContainEqual({ from: `${site.server.url}/`, to: `${site.server.url}/guide` });

    site.heal();
    const retried = await callTool(mcp, 'retry_failed_pages', { id });
    expect(jsonOf(retried)).toMatchObject({ id, retrying: 1, next: expect.stringContaining('firecrawl_check_crawl_status') });
    let after: any;
    for (let i = 0; i < 120; i++) {
      after = jsonOf(await callTool(mcp, 'firecrawl_check_crawl_status', { id }));
      if (after.status !== 'scraping' && after.failed === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(after).toMatchObject({ status: 'completed', completed: 4, failed: 0 });
    expect(after.data.find((d: any) => pathOf(d.metadata.sourceURL) === '/heal').markdown).toContain('answers now that the server was repaired');
  });

  it("firecrawl_credit_usage's historical view lists the months charged, newest first", async () => {
    const historical = jsonOf(await callTool(mcp, 'firecrawl_credit_usage', { view: 'historical' }));
    const months = (await api('/v2/team/credit-usage/historical')).body.periods;
    expect(months.length).toBeGreaterThan(0);
    expect(historical.periods.map((p: { startDate: string }) => p.startDate)).toEqual(months.map((p: { startDate: string }) => p.startDate).reverse());
    expect(historical.periods[0].creditsUsed).toBeGreaterThan(0);
  });

  it('firecrawl_extract fills a schema from a page, with confidence notes', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' }, sku: { type: 'string' } }, required: ['name'] };
    const result = await callTool(mcp, 'firecrawl_extract', { urls: [fixture('/extract/product-jsonld')], schema });
    expect(result.isError, texts(result).join('\n')).toBeFalsy();
    const job = jsonOf(result);
    expect(job).toMatchObject({ status: 'completed', data: { name: EXTRACT_FIXTURES.product.name, price: EXTRACT_FIXTURES.product.price, sku: EXTRACT_FIXTURES.product.sku } });
    expect(job.notes.find((n: { path: string }) => n.path === 'name')).toMatchObject({ source: 'json-ld' });
    expect(job.sources).toMatchObject({ name: [fixture('/extract/product-jsonld')], sku: [fixture('/extract/product-jsonld')] });
  });

  it('firecrawl_scrape with changeTracking compares with the previous copy: new, same, then changed with a git diff', async () => {
    const url = `${site.server.url}/log`;
    const first = await callTool(mcp, 'firecrawl_scrape', { url, formats: ['markdown', 'changeTracking'] });
    expect(first.isError, texts(first).join('\n')).toBeFalsy();
    expect(jsonOf(first).changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });

    const second = jsonOf(await callTool(mcp, 'firecrawl_scrape', { url, formats: ['markdown', 'changeTracking'] }));
    expect(second.changeTracking).toMatchObject({ changeStatus: 'same', previousScrapeAt: expect.any(String) });

    site.lines[1] = 'The keeper oiled the clock.';
    const third = jsonOf(await callTool(mcp, 'firecrawl_scrape', { url, formats: ['markdown', 'changeTracking'], changeTrackingOptions: { modes: ['git-diff'] } }));
    expect(third.changeTracking).toMatchObject({ changeStatus: 'changed' });
    expect(third.changeTracking.diff.text).toContain('-The keeper wound the clock.');
    expect(third.changeTracking.diff.text).toContain('+The keeper oiled the clock.');
  });

  it('firecrawl_scrape takes screenshotOptions (quality, viewport) and answers a JPEG URL', async () => {
    const doc = jsonOf(await callTool(mcp, 'firecrawl_scrape', { url: `${site.server.url}/guide`, formats: ['screenshot'], screenshotOptions: { quality: 60, viewport: { width: 800, height: 600 } } }));
    expect(doc.screenshot).toMatch(/\.jpeg$/);
    expect(doc).not.toHaveProperty('markdown');
  });

  it('firecrawl_scrape with summary says it needs an LLM when the service has none', async () => {
    const result = await callTool(mcp, 'firecrawl_scrape', { url: `${site.server.url}/guide`, formats: ['markdown', 'summary'] });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toMatch(/^LLM_NOT_CONFIGURED: The summary format needs an LLM, and none is configured/);
  });

  it("refuses firecrawl-mcp's parameters and values that are not served, naming each and why", async () => {
    const refusal = async (tool: string, args: Record<string, unknown>) => {
      const result = await callTool(mcp, tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      return texts(result).join('\n');
    };
    const url = `${site.server.url}/guide`;
    expect(await refusal('firecrawl_scrape', { url, redactPII: true, zeroDataRetention: false })).toMatch(
      /"redactPII" is not served here: PII redaction is a Firecrawl cloud feature\. Leave it out\. "zeroDataRetention" is not served here: this service stores every page it scrapes\. Leave it out\./,
    );
    expect(await refusal('firecrawl_scrape', { url, formats: ['markdown', 'audio'] })).toContain('"audio" is not served here: audio extraction is a Firecrawl cloud feature');
    expect(await refusal('firecrawl_scrape', { url, proxy: 'stealth' })).toContain('"stealth" is not served here: stealth proxies are a Firecrawl cloud feature');
    expect(await refusal('firecrawl_scrape', { url, actions: [{ type: 'generatePDF' }] })).toContain('"generatePDF" is not served here');
    expect(await refusal('firecrawl_scrape', { url, formast: ['markdown'] })).toContain('"formast" is not an accepted parameter');
    expect(await refusal('firecrawl_scrape', { url, jsonOptions: { prompt: 'the title' } })).toBe(
      'BAD_REQUEST: Options were given for a format that formats does not ask for\n- jsonOptions: add "json" to formats, or leave jsonOptions out',
    );
    expect(await refusal('firecrawl_search', { query: word, sources: ['web', 'alexandria'] })).toContain('"alexandria" is not served here');
    expect(await refusal('firecrawl_search', { query: word, includeDomains: ['example.com'] })).toContain('"includeDomains" is not served here: domain filters are not offered');
    expect(await refusal('firecrawl_search', { query: word, categories: ['developer'] })).toContain('"developer" is not served here');
    expect(await refusal('firecrawl_crawl', { url, scrapeOptions: { lockdown: true } })).toMatch(/"lockdown" is not served here: lockdown mode is a Firecrawl cloud feature\. Leave it out\. at scrapeOptions/);
    expect(await refusal('firecrawl_extract', { urls: [url], prompt: 'x', enableWebSearch: false })).toContain('"enableWebSearch" is not served here');
    expect(await refusal('firecrawl_credit_usage', { byApiKey: true })).toContain('"byApiKey" is not served here: usage is recorded per team');
  });

  it('screenshot returns the image itself and where it is', async () => {
    const result = await callTool(mcp, 'screenshot', { url: `${site.server.url}/guide`, viewport: { width: 640, height: 400 } });
    expect(result.isError, texts(result).join('\n')).toBeFalsy();
    const summary = jsonOf(result);
    expect(summary).toMatchObject({ width: 640, height: 400, format: 'png', page: { title: 'Visitor guide', statusCode: 200 } });
    const image = result.content.find((c) => c.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const bytes = Buffer.from((image as { data: string }).data, 'base64');
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.length).toBe(summary.bytes);
  });

  it("says the API's error code and message when the API refuses", async () => {
    const result = await callTool(mcp, 'firecrawl_scrape', { url: 'http://169.254.169.254/latest/meta-data/' });
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toMatch(/^URL_BLOCKED: .*not a public address/);

    const invalid = await callTool(mcp, 'firecrawl_scrape', { url: `${site.server.url}/`, waitFor: 20_000, timeout: 10_000 });
    expect(invalid.isError).toBe(true);
    expect(texts(invalid)[0]).toMatch(/^BAD_REQUEST: [^\n]+\n- waitFor: waitFor \(20000\) must be at most half of timeout/);
  });
});

describe('/mcp without a valid key', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

  it('answers 401 in our error shape, with no key or a wrong one', async () => {
    for (const key of [null, 'wcs_not-a-real-key']) {
      const { status, body } = await api('/mcp', { body: initialize, key });
      expect(status).toBe(401);
      expect(body).toEqual({ success: false, code: 'UNAUTHORIZED', error: expect.any(String) });
    }
  });

  it('offers no server-sent event stream: GET /mcp is a 405 in our shape', async () => {
    const { status, headers, body } = await api('/mcp', { method: 'GET' });
    expect(status).toBe(405);
    expect(headers.get('allow')).toBe('POST');
    expect(body).toMatchObject({ success: false, code: 'METHOD_NOT_ALLOWED' });
  });

  it('refuses the MCP client to connect', async () => {
    const refused = await connectHttpMcp(inject('apiUrl'), 'wcs_not-a-real-key').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(Error);
    expect(String(refused)).toContain('Unknown or revoked API key');
  });
});

describe('wcs mcp without a reachable API', () => {
  it('answers each call with an error that names the API URL', async () => {
    const mcp = await connectWcsMcp('http://127.0.0.1:9', 'wcs_unused');
    try {
      const result = await callTool(mcp, 'firecrawl_credit_usage');
      expect(result.isError).toBe(true);
      expect(texts(result)[0]).toMatch(/^SERVICE_UNAVAILABLE: Could not reach the API at http:\/\/127\.0\.0\.1:9: /);
    } finally {
      await mcp.close();
    }
  });
});

describe('results sized to MCP_RESULT_MAX_CHARS', () => {
  const BUDGET = 2_000;
  let mcp: Connected;
  let site: FixtureServer;
  const paragraphs = Array.from({ length: 300 }, (_, i) => `Entry ${i}: the keeper logged wind, swell and the lamp's hours for night number ${i}.`);

  beforeAll(async () => {
    site = await startFixtureServer({ '/long': (_req, res) => html(res, page('Keeper log', paragraphs.map((p) => `<p>${p}</p>`).join('\n'))) }, inject('siteHosts')[1]!);
    mcp = await connectWcsMcp(inject('apiUrl'), inject('apiKey'), { MCP_RESULT_MAX_CHARS: String(BUDGET) });
  });
  afterAll(async () => {
    await mcp?.close();
    await site?.close();
  });

  it('cuts a long page, says what it kept of how much, and continues it with contentOffset', async () => {
    const url = `${site.url}/long`;
    const whole = (await api('/v1/scrape', { body: { url } })).body.data.markdown as string;
    expect(whole.length).toBeGreaterThan(BUDGET * 5);

    const first = await callTool(mcp, 'firecrawl_scrape', { url });
    expect(texts(first).join('').length).toBeLessThanOrEqual(BUDGET);
    const [note] = texts(first);
    expect(note).toMatch(/^TRUNCATED: this result was cut to fit the 2,000-character budget \(MCP_RESULT_MAX_CHARS\)/);
    const kept = /- markdown: kept characters 0–([\d,]+) of ([\d,]+)/.exec(note!);
    expect(kept, note).not.toBeNull();
    const end = Number(kept![1]!.replace(/,/g, ''));
    expect(Number(kept![2]!.replace(/,/g, ''))).toBe(whole.length);
    expect(note).toContain(`"contentOffset": ${end}`);
    const firstPart = jsonOf(first).markdown as string;
    expect(firstPart).toBe(`${whole.slice(0, end)}…`);

    const second = await callTool(mcp, 'firecrawl_scrape', { url, contentOffset: end });
    expect(texts(second)[0]).toContain(`- markdown: kept characters ${end.toLocaleString('en-US')}–`);
    expect((jsonOf(second).markdown as string).slice(0, -1)).toBe(whole.slice(end, end + (jsonOf(second).markdown as string).length - 1));
  });

  it('keeps whole crawl pages that fit and names the skip that continues', async () => {
    const pages = Array.from({ length: 6 }, (_, i) => `/p${i}`);
    const routes: FixtureRoutes = { '/': (_req, res) => html(res, page('Index', pages.map((p) => `<a href="${p}">${p}</a>`).join(' '))) };
    for (const p of pages) routes[p] = (_req, res) => html(res, page(`Page ${p}`, `<p>${paragraphs.slice(0, 4).join(' ')}</p>`));
    const crawlSite = await startFixtureServer(routes, inject('siteHosts')[1]!);
    try {
      const result = await callTool(mcp, 'firecrawl_crawl', { url: `${crawlSite.url}/`, limit: 7, sitemap: 'skip' });
      expect(texts(result).join('').length).toBeLessThanOrEqual(BUDGET);
      const [note] = texts(result);
      const kept = /- data: kept (\d+) of 7 items/.exec(note!);
      expect(kept, note).not.toBeNull();
      const status = jsonOf(result);
      expect(status).toMatchObject({ status: 'completed', total: 7, completed: 7 });
      expect(status.data).toHaveLength(Number(kept![1]));
      expect(note).toContain(`call firecrawl_check_crawl_status with {"id": "${status.id}", "skip": ${kept![1]}}`);
    } finally {
      await crawlSite.close();
    }
  });
});
