import Firecrawl from '@mendable/firecrawl-js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ledger } from '../../src/db/schema';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { api } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { refusal } from '../helpers/sdk-refusal';

/** A small site of our own: pages whose content the tests change, and pages to search for. */
let site: FixtureServer;
const at = (path: string) => `${site.url}${path}`;
/** What /changing says now, and /priced's price; tests edit them between scrapes. */
let changing: { status: number; lines: string[] } = { status: 200, lines: [] };
let price = '10.00';

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title><meta name="description" content="${title} description">${head}</head><body><main>${body}</main></body></html>`;

function sdk(): Firecrawl {
  return new Firecrawl({ apiKey: inject('apiKey'), apiUrl: inject('apiUrl') });
}

beforeAll(async () => {
  site = await startFixtureServer(
    {
      '/': (_req, res) => html(res, page('Quasar Works', '<h1>Quasar Works</h1><a href="/article">Article</a> <a href="/news/launch">Launch news</a> <a href="/product?ref=home">Product</a> <a href="/product?ref=footer">Product again</a>')),
      '/article': (_req, res) =>
        html(
          res,
          page(
            'Ringed planets explained',
            `<h1>Ringed planets explained</h1>
<p>Saturn's rings are made of ice and rock, and a quasar is far brighter than any of them. Astronomers have measured the rings for centuries with ever larger telescopes.</p>
<p><img src="/img/rings.png" alt="Rings"> <img srcset="/img/small.jpg 1x, /img/large.jpg 2x" alt="Planet"></p>
<p><a class="doc" data-id="7" href="/docs/seven">Seven</a> <a class="doc" data-id="8" href="/docs/eight">Eight</a></p>`,
          ),
        ),
      '/news/launch': (_req, res) =>
        html(
          res,
          page(
            'Quasar telescope launched',
            '<article><h1>Quasar telescope launched</h1><p>The quasar telescope launched this morning and will survey distant quasars for ten years.</p></article>',
            '<meta property="article:published_time" content="2026-11-01T10:00:00Z">',
          ),
        ),
      '/product': (_req, res) => html(res, page('Telescope mount', '<h1>Equatorial mount</h1><p class="price">249.50</p><p>A sturdy mount for small telescopes.</p>')),
      '/changing': (_req, res) => {
        res.writeHead(changing.status, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page('Changing page', changing.lines.map((l) => `<p>${l}</p>`).join('\n')));
      },
      '/priced': (_req, res) => html(res, page('Priced item', `<h1>Star chart</h1><p class="price">${price}</p><p>Printed on heavy paper.</p>`)),
      // Shows the request's headers, so a test sees what the scrape sent.
      '/echo': (req, res) => html(res, page('Echo', `<h1>Echo</h1><p id="ua">${req.headers['user-agent']}</p><p>Language: ${req.headers['accept-language']}</p><p>Token: ${req.headers['x-token']}</p>`)),
      '/counted': (_req, res) => html(res, page('Counted page', '<h1>Counted</h1><p>Each fetch of this page is counted by the test.</p>')),
      '/uncached': (_req, res) => html(res, page('Uncached page', '<h1>Uncached</h1><p>This page is scraped with storeInCache false.</p>')),
    },
    inject('siteHosts')[0],
  );
});
afterAll(() => site?.close());

describe('the Firecrawl v2 client (default export of @mendable/firecrawl-js@4) against this service: scrape', () => {
  it('returns markdown, html, links, images and attributes as asked', async () => {
    const doc = await sdk().scrape(at('/article'), {
      formats: ['markdown', 'html', 'links', 'images', { type: 'attributes', selectors: [{ selector: 'a.doc', attribute: 'data-id' }] }],
    });
    expect(doc.markdown).toContain("Saturn's rings are made of ice and rock");
    expect(doc.html).toContain("<p>Saturn's rings are made of ice and rock");
    expect(doc.html).not.toContain('<html');
    expect(doc.links).toEqual(expect.arrayContaining([at('/docs/seven'), at('/docs/eight')]));
    expect(doc.images).toEqual([at('/img/rings.png'), at('/img/small.jpg'), at('/img/large.jpg')]);
    expect(doc.attributes).toEqual([{ selector: 'a.doc', attribute: 'data-id', values: ['7', '8'] }]);
    expect(doc.rawHtml).toBeUndefined();
    expect(doc.metadata).toMatchObject({ title: 'Ringed planets explained', sourceURL: at('/article'), statusCode: 200, cacheState: 'miss' });
  });

  it('fills a JSON schema with the json format object', async () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string', 'x-selector': 'h1' }, price: { type: 'number', 'x-selector': '.price' } },
    };
    const doc = await sdk().scrape(at('/product'), { formats: [{ type: 'json', schema }] });
    expect(doc.json).toEqual({ name: 'Equatorial mount', price: 249.5 });
    expect(doc.markdown).toBeUndefined();
    expect(doc.metadata?.creditsUsed).toBe(5);
  });

  it('takes a screenshot from the screenshot object, at the viewport asked, as a JPEG with quality', async () => {
    const doc = await sdk().scrape(at('/article'), { formats: [{ type: 'screenshot', fullPage: false, quality: 60, viewport: { width: 800, height: 600 } }] });
    expect(doc.screenshot).toMatch(/\.jpeg$/);
    const image = await fetch(doc.screenshot!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await image.arrayBuffer());
    // JPEG SOF0/SOF2 frame header: height then width, big-endian.
    const sof = bytes.findIndex((b, i) => b === 0xff && (bytes[i + 1] === 0xc0 || bytes[i + 1] === 0xc2));
    expect({ height: bytes.readUInt16BE(sof + 5), width: bytes.readUInt16BE(sof + 7) }).toEqual({ height: 600, width: 800 });
  });

  it('tracks changes against the team’s previous copy: new, same, changed (git-diff), removed', async () => {
    const tracking = { type: 'changeTracking' as const, modes: ['git-diff' as const] };
    changing = { status: 200, lines: ['First line stays.', 'Second line will change.', 'Third line stays.'] };
    const first = await sdk().scrape(at('/changing'), { formats: ['markdown', tracking] });
    expect(first.changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });

    const second = await sdk().scrape(at('/changing'), { formats: ['markdown', tracking] });
    expect(second.changeTracking).toMatchObject({ changeStatus: 'same', visibility: 'visible' });
    expect(Date.parse(second.changeTracking!.previousScrapeAt as string)).toBeLessThanOrEqual(Date.now());
    expect(second.changeTracking!.diff).toBeUndefined();

    changing.lines[1] = 'Second line has changed.';
    const third = await sdk().scrape(at('/changing'), { formats: ['markdown', tracking] });
    expect(third.changeTracking).toMatchObject({ changeStatus: 'changed' });
    // Compared with the newest earlier copy (the second scrape), not the first.
    expect(Date.parse(third.changeTracking!.previousScrapeAt as string)).toBeGreaterThan(Date.parse(second.changeTracking!.previousScrapeAt as string));
    const diff = third.changeTracking!.diff as { text: string; json: { files: { chunks: { changes: { type: string; content: string }[] }[] }[] } };
    expect(diff.text).toContain('-Second line will change.');
    expect(diff.text).toContain('+Second line has changed.');
    expect(diff.text).toContain(' First line stays.');
    const changes = diff.json.files[0]!.chunks.flatMap((c) => c.changes);
    expect(changes.filter((c) => c.type !== 'normal').map((c) => c.content)).toEqual(['-Second line will change.', '+Second line has changed.']);

    // Another history: a tag compares only with copies of the same tag.
    const tagged = await sdk().scrape(at('/changing'), { formats: ['markdown', { ...tracking, tag: 'weekly' }] });
    expect(tagged.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });

    changing.status = 404;
    const gone = await sdk().scrape(at('/changing'), { formats: ['markdown', tracking] });
    expect(gone.metadata?.statusCode).toBe(404);
    expect(gone.changeTracking).toMatchObject({ changeStatus: 'removed' });
  });

  it('compares field by field in the json mode of changeTracking', async () => {
    const tracking = {
      type: 'changeTracking' as const,
      modes: ['json' as const],
      schema: { type: 'object', properties: { title: { type: 'string', 'x-selector': 'h1' }, price: { type: 'number', 'x-selector': '.price' } } },
    };
    const first = await sdk().scrape(at('/priced'), { formats: ['markdown', tracking] });
    expect(first.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });
    expect(first.json).toBeUndefined();
    price = '12.50';
    const second = await sdk().scrape(at('/priced'), { formats: ['markdown', tracking] });
    expect(second.changeTracking).toMatchObject({ changeStatus: 'changed', json: { price: { previous: 10, current: 12.5 } } });
    expect(Object.keys(second.changeTracking!.json as object)).toEqual(['price']);
  });

  it('answers from a stored copy by default (maxAge of two days), and never from one stored with storeInCache: false', async () => {
    const first = await sdk().scrape(at('/counted'));
    const second = await sdk().scrape(at('/counted'));
    expect(site.hits.get('/counted')).toBe(1);
    expect(first.metadata?.cacheState).toBe('miss');
    expect(second.metadata).toMatchObject({ cacheState: 'hit', cachedAt: expect.any(String) });
    expect(second.markdown).toBe(first.markdown);
    const fresh = await sdk().scrape(at('/counted'), { maxAge: 0 });
    expect(fresh.metadata?.cacheState).toBe('miss');
    expect(site.hits.get('/counted')).toBe(2);

    await sdk().scrape(at('/uncached'), { storeInCache: false });
    const again = await sdk().scrape(at('/uncached'));
    expect(site.hits.get('/uncached')).toBe(2);
    expect(again.metadata?.cacheState).toBe('miss');
  });

  it('passes actions, mobile, headers and location through to the browser scrape', async () => {
    const doc = await sdk().scrape(at('/echo'), {
      formats: ['markdown'],
      mobile: true,
      headers: { 'x-token': 'v2-secret' },
      location: { country: 'DE', languages: ['de-DE'] },
      actions: [{ type: 'executeJavascript', script: 'return document.querySelector("#ua").textContent.includes("Mobile")' }],
      maxAge: 0,
    });
    expect(doc.metadata?.renderer).toBe('browser');
    expect(doc.markdown).toContain('Token: v2-secret');
    expect(doc.markdown).toContain('Language: de-DE');
    expect(doc.actions).toMatchObject({ javascriptReturns: [{ type: 'boolean', value: true }] });
  });

  it('refuses summary without an LLM (422 LLM_NOT_CONFIGURED), before charging anything', async () => {
    const err = await refusal(sdk().scrape(at('/article'), { formats: ['summary'] }));
    expect(err.status).toBe(422);
    expect(err.code).toBe('LLM_NOT_CONFIGURED');
    expect(err.message).toContain('The summary format needs an LLM');
  });

  it('surfaces a blocked URL as the SDK’s error with our status, code and message', async () => {
    const err = await refusal(sdk().scrape('http://169.254.169.254/latest/meta-data/'));
    expect(err.status).toBe(403);
    expect(err.code).toBe('URL_BLOCKED');
    expect(err.message).toContain('not a public address');
  });

  it('validates v2 options with our 400 shape', async () => {
    const { status, body } = await api('/v2/scrape', { body: { url: at('/article'), formats: ['changeTracking'] } });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(body.details).toContainEqual({ path: 'formats', message: 'the changeTracking format compares markdown; add "markdown" to formats' });
  });

  it('tells a client that names an options-taking format as a string how to give it', async () => {
    const { status, body } = await api('/v2/scrape', { body: { url: at('/article'), formats: ['markdown', 'json'] } });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(body.error).toContain('formats.1: "json" takes options, so it is given as an object: {"type": "json", "schema": {...}} and/or "prompt"');
    const unknown = await api('/v2/scrape', { body: { url: at('/article'), formats: ['markdwn'] } });
    expect(unknown.body.details).toEqual([{ path: 'formats.0', message: expect.stringMatching(/^Invalid option: expected one of "markdown"\|"html"/) }]);
  });
});

describe('the Firecrawl v2 client: map, search, extract', () => {
  it('maps a site as link objects, named from the pages already scraped, query variants once', async () => {
    await sdk().scrape(at('/news/launch'));
    const { links } = await sdk().map(at('/'), { sitemap: 'skip' });
    const ours = links.filter((l) => l.url.startsWith(site.url));
    expect(ours.map((l) => l.url)).toEqual([at('/'), at('/article'), at('/news/launch'), at('/product')]);
    expect(ours.find((l) => l.url === at('/news/launch'))).toEqual({ url: at('/news/launch'), title: 'Quasar telescope launched', description: 'Quasar telescope launched description' });
    // The start page was fetched for its links, never stored: nothing names it.
    expect(ours.find((l) => l.url === at('/'))).toEqual({ url: at('/'), title: undefined, description: undefined });

    const searched = await sdk().map(at('/'), { sitemap: 'skip', search: 'news', ignoreQueryParameters: false });
    expect(searched.links.map((l) => l.url)).toEqual([at('/news/launch')]);
  });

  it('searches web and news: data.web has the pages, data.news only the dated articles', async () => {
    await sdk().scrape(at('/article'));
    await sdk().scrape(at('/news/launch'));
    const results = await sdk().search('quasar telescope', { sources: ['web', 'news'], limit: 10 });
    const ofSite = <T>(items: T[] | undefined) => (items ?? []).filter((r) => (r as { url?: string }).url?.startsWith(site.url)) as (T & { url: string })[];
    const web = ofSite(results.web);
    const news = ofSite(results.news);
    expect(web.map((r) => r.url)).toEqual(expect.arrayContaining([at('/news/launch'), at('/article')]));
    expect(web[0]).toMatchObject({ url: at('/news/launch'), title: 'Quasar telescope launched', position: expect.any(Number) });
    // The snippet: the page's passages for the query (search highlights, on by default).
    expect(news).toEqual([
      expect.objectContaining({ url: at('/news/launch'), title: 'Quasar telescope launched', snippet: expect.stringMatching(/^The quasar telescope launched this morning/), date: '2026-11-01T10:00:00Z' }),
    ]);
    const snippets = await sdk().search('quasar telescope', { sources: ['news'], limit: 10, highlights: false });
    expect(ofSite(snippets.news)).toEqual([expect.objectContaining({ url: at('/news/launch'), snippet: 'Quasar telescope launched description' })]);

    const scraped = await sdk().search('quasar telescope', { sources: ['web'], limit: 1, scrapeOptions: { formats: ['markdown'] } });
    expect(scraped.web).toHaveLength(1);
    expect(scraped.web![0]).toMatchObject({ url: expect.any(String), markdown: expect.stringContaining('quasar'), metadata: expect.objectContaining({ statusCode: 200 }) });
  });

  it('extracts JSON from pages and polls the job to completion', async () => {
    const result = await sdk().extract({
      urls: [at('/product')],
      schema: { type: 'object', properties: { price: { type: 'number', 'x-selector': '.price' } } },
      showSources: true,
      pollInterval: 1,
      timeout: 60,
    });
    expect(result).toMatchObject({ success: true, status: 'completed', data: { price: 249.5 } });
    expect(result.sources).toEqual({ price: [at('/product')] });
  });
});

describe('the Firecrawl v2 client: account and cloud-only endpoints', () => {
  it('reports credits from the ledger, and the queue from the job tables', async () => {
    const usage = await sdk().getCreditUsage();
    const balance = await api('/v1/team/credit-usage');
    expect(usage.remainingCredits).toBe(balance.body.data.remaining_credits);
    const granted = await testDatabase().db.select({ amount: ledger.amount }).from(ledger).where(eq(ledger.teamId, inject('teamId')));
    expect(usage.planCredits).toBe(granted.filter((r) => r.amount > 0).reduce((s, r) => s + r.amount, 0));

    const historical = await sdk().getCreditUsageHistorical();
    const charged = -granted.filter((r) => r.amount < 0).reduce((s, r) => s + r.amount, 0);
    expect(historical.periods.reduce((s, p) => s + p.creditsUsed, 0)).toBeGreaterThanOrEqual(charged);

    const queue = await sdk().getQueueStatus();
    expect(queue).toMatchObject({ success: true, maxConcurrency: expect.any(Number), mostRecentSuccess: expect.any(String) });
    expect(queue.jobsInQueue).toBe(queue.activeJobsInQueue + queue.waitingJobsInQueue);
    const concurrency = await sdk().getConcurrency();
    expect(concurrency.maxConcurrency).toBe(queue.maxConcurrency);
  });

  it('answers a documented 501 NOT_IMPLEMENTED naming the endpoint for what only Firecrawl’s cloud offers', async () => {
    const err = await refusal(sdk().getAgentThread('thread-1'));
    expect(err.status).toBe(501);
    expect(err.code).toBe('NOT_IMPLEMENTED');
    expect(err.message).toContain('GET /v2/agent/threads/:threadId');
    const removal = await api('/v2/browser/123', { method: 'DELETE' });
    expect(removal.status).toBe(501);
    expect(removal.body).toMatchObject({ success: false, code: 'NOT_IMPLEMENTED', error: expect.stringContaining('DELETE /v2/browser/:id') });
    const unauthorized = await api('/v2/agent/threads/thread-1', { key: null });
    expect(unauthorized.status).toBe(401);
  });
});
