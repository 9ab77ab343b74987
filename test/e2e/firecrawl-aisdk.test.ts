import type { ToolExecutionOptions } from 'ai';
import { FirecrawlTools } from 'firecrawl-aisdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';

/**
 * The Vercel AI SDK's Firecrawl tools (firecrawl-aisdk 0.12 with ai 6, unmodified) against this
 * service, set up as a self-hosting user sets them up: FIRECRAWL_API_KEY and FIRECRAWL_API_URL in
 * the environment (the poll tool reads only those) and FirecrawlTools({apiKey, apiUrl}). Each
 * tool's `execute` is called with the arguments its description steers a model to.
 */
let site: FixtureServer;
const at = (path: string) => `${site.url}${path}`;

const TIDES = 'Spring tides happen twice a month, when the sun and the moon line up and their pulls add together.';
const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const saved = { key: process.env.FIRECRAWL_API_KEY, url: process.env.FIRECRAWL_API_URL };

beforeAll(async () => {
  site = await startFixtureServer(
    {
      '/': (_req, res) => html(res, page('Tide tables', '<p>Tables of the tides for the harbour.</p><a href="/tides">Why tides</a> <a href="/moon">The moon</a>')),
      '/tides': (_req, res) => html(res, page('Why tides happen', `<p>The moon pulls the oceans towards it, and the water rises on the side facing it.</p><p>${TIDES}</p><p>Neap tides come in between, when the pulls work against each other.</p>`)),
      '/moon': (_req, res) => html(res, page('The moon', '<p>The moon circles the earth every twenty-seven days.</p>')),
    },
    inject('siteHosts')[0],
  );
  process.env.FIRECRAWL_API_KEY = inject('apiKey');
  process.env.FIRECRAWL_API_URL = inject('apiUrl');
});
afterAll(async () => {
  for (const [name, value] of [['FIRECRAWL_API_KEY', saved.key], ['FIRECRAWL_API_URL', saved.url]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await site?.close();
});

const call: ToolExecutionOptions = { toolCallId: 'call-1', messages: [] };
const tools = () => FirecrawlTools({ apiKey: inject('apiKey'), apiUrl: inject('apiUrl'), all: true });

describe('firecrawl-aisdk 0.12 tools against this service', () => {
  it('scrape with the query format, as its description tells the model to: a direct answer quoted from the page', async () => {
    const result = (await tools().scrape.execute!({ url: at('/tides'), formats: [{ type: 'query', prompt: 'When do spring tides happen?' }] }, call)) as { answer?: string; markdown?: string };
    expect(result.answer).toBe(TIDES);
    expect(result.markdown).toBeUndefined();
  });

  it('search with scrapeOptions formats query: each scraped result answers', async () => {
    await tools().scrape.execute!({ url: at('/tides'), formats: ['markdown'] }, call);
    const result = (await tools().search.execute!({ query: 'spring tides sun moon', limit: 5, scrapeOptions: { formats: [{ type: 'query', prompt: 'When do spring tides happen?' }] } }, call)) as {
      web?: { url: string; answer?: string }[];
    };
    const ours = result.web?.find((r) => r.url === at('/tides'));
    expect(ours?.answer).toBe(TIDES);
  });

  it("search with sources objects: each source's own tbs filters it, and a location the local index cannot use is named in the warning", async () => {
    await tools().scrape.execute!({ url: at('/tides'), formats: ['markdown'] }, call);
    type Found = { web?: { url: string; description?: string }[]; warning?: string };
    const today = (await tools().search.execute!({ query: 'spring tides sun moon', limit: 5, sources: [{ type: 'web', tbs: 'qdr:d', location: 'Berlin,Germany' }] }, call)) as Found;
    // Its description: the page's passages for the query (search highlights, on by default).
    expect(today.web?.find((r) => r.url === at('/tides'))?.description?.split('\n\n')).toContain(TIDES);
    expect(today.warning).toContain('the local index cannot search from a location; location was ignored.');
    const in2000 = (await tools().search.execute!({ query: 'spring tides sun moon', limit: 5, sources: [{ type: 'web', tbs: 'cdr:1,cd_min:1/1/2000,cd_max:12/31/2000' }] }, call)) as Found;
    expect(in2000.web).toEqual([]);
  });

  it('map lists the site', async () => {
    const result = (await tools().map!.execute!({ url: at('/') }, call)) as { links: { url: string }[] };
    expect(result.links.map((l) => l.url)).toEqual(expect.arrayContaining([at('/tides'), at('/moon')]));
  });

  it('crawl returns a job id, and poll (reading FIRECRAWL_API_KEY and FIRECRAWL_API_URL) returns its pages', async () => {
    const started = (await tools().crawl!.execute!({ url: at('/'), limit: 3, scrapeOptions: { formats: [{ type: 'query', prompt: 'When do spring tides happen?' }] } }, call)) as { id: string };
    expect(started.id).toMatch(/[0-9a-f-]{36}/);
    const polled = (await tools().poll!.execute!({ jobId: started.id, jobType: 'crawl', pollInterval: 1, maxWaitTime: 60 }, call)) as {
      success: boolean;
      data: { answer?: string; metadata: { sourceURL: string } }[];
    };
    expect(polled.success).toBe(true);
    expect(polled.data.map((d) => new URL(d.metadata.sourceURL).pathname).sort()).toEqual(['/', '/moon', '/tides']);
    expect(polled.data.find((d) => d.metadata.sourceURL === at('/tides'))?.answer).toBe(TIDES);
  });

  it('batch scrape returns every page', async () => {
    const result = (await tools().batchScrape!.execute!({ urls: [at('/tides'), at('/moon')], formats: ['markdown'] }, call)) as { status: string; data: { markdown?: string }[] };
    expect(result.status).toBe('completed');
    expect(result.data.map((d) => d.markdown).join('\n')).toContain('twenty-seven days');
    expect(result.data.map((d) => d.markdown).join('\n')).toContain(TIDES);
  });
});
