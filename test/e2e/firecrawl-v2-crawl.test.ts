import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Firecrawl, { SdkError, type CrawlJob, type Document } from '@mendable/firecrawl-js';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site';
import { api } from '../helpers/api';
import { startLlmStack, type LlmStack } from '../helpers/llm-stack';
import { sdkShapeProblems } from '../helpers/sdk-types';

let site: CrawlSite;

beforeAll(async () => {
  site = await startCrawlSite(inject('siteHosts')[0]!, { pagesPerSection: 110 });
});
afterAll(async () => {
  await site?.close();
});

function sdk(apiUrl = inject('apiUrl')): Firecrawl {
  return new Firecrawl({ apiKey: inject('apiKey'), apiUrl });
}

const pathOf = (doc: Document) => new URL(doc.metadata!.sourceURL!).pathname.replace(/\/+$/, '') || '/';

/** Polls through the SDK, without following `next`, until the crawl ends. */
async function finished(id: string, client = sdk()): Promise<CrawlJob> {
  for (const deadline = Date.now() + 60_000; ; ) {
    const status = await client.getCrawlStatus(id, { autoPaginate: false });
    if (status.status !== 'scraping') return status;
    if (Date.now() > deadline) throw new Error(`crawl ${id} still running: ${status.completed}/${status.total}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('the v2 client (default Firecrawl export of @mendable/firecrawl-js@4) crawling this service', () => {
  it('crawl waits for the crawl and returns every page as a v2 document', async () => {
    const job = await sdk().crawl(`${site.url}/blog`, {
      limit: 20,
      maxDiscoveryDepth: 1,
      sitemap: 'skip',
      scrapeOptions: { formats: ['markdown', 'links', 'images'] },
      pollInterval: 1,
      timeout: 60,
    });
    expect(job.status).toBe('completed');
    // /blog is under its own path: the nav's other sections are out of scope, its four children in.
    expect(job.data.map(pathOf).sort()).toEqual(['/blog', '/blog/p1', '/blog/p2', '/blog/p3', '/blog/p4']);
    expect(job.completed).toBe(5);
    expect(job.total).toBe(5);
    expect(job.creditsUsed).toBe(5);
    for (const doc of job.data) {
      expect(doc.markdown).toContain(`Page ${pathOf(doc)}`);
      expect(doc.links).toContain(`${site.url}/docs`);
      expect(doc.images).toEqual([]);
      expect(doc.html).toBeUndefined();
      expect(doc.metadata).toMatchObject({ statusCode: 200, title: `Page ${pathOf(doc)}`, cacheState: 'miss' });
    }
    // The waiter's documents are the ones the API answers.
    const { body } = await api(`/v2/crawl/${job.id}`);
    expect(job.data).toEqual(body.data);
  });

  it('getCrawlStatus pages through a large crawl by next, and its JSON is what the SDK declares', async () => {
    const started = await sdk().startCrawl(`${site.url}/docs`, { limit: 105, sitemap: 'skip', maxConcurrency: 20 });
    expect(started.url).toBe(`${inject('apiUrl')}/v2/crawl/${started.id}`);
    const first = await finished(started.id);
    expect(first).toMatchObject({ status: 'completed', total: 105, completed: 105, next: `${inject('apiUrl')}/v2/crawl/${started.id}?skip=100&limit=100` });
    expect(first.data).toHaveLength(100);

    const all = await sdk().getCrawlStatus(started.id);
    expect(all.next).toBeNull();
    expect(all.data).toHaveLength(105);
    expect(new Set(all.data.map(pathOf)).size).toBe(105);
    expect(all.data.slice(0, 100)).toEqual(first.data);
    expect((await sdk().getCrawlStatus(started.id, { maxResults: 102 })).data).toHaveLength(102);

    // The wire JSON of both pages against the SDK's CrawlJob (which adds `id` from the path).
    const page1 = await api(`/v2/crawl/${started.id}`);
    expect(page1.body.next).toBe(first.next);
    expect(sdkShapeProblems({ id: started.id, ...page1.body }, 'CrawlJob')).toEqual([]);
    const page2 = await api(new URL(page1.body.next).pathname + new URL(page1.body.next).search);
    expect(page2.body.data).toHaveLength(5);
    expect(page2.body.next).toBeUndefined();
    expect(sdkShapeProblems({ id: started.id, ...page2.body }, 'CrawlJob')).toEqual([]);
    expect(page2.body.data).toEqual(all.data.slice(100));
  });

  it('lists the crawl as active until cancelCrawl stops it', async () => {
    const { id } = await sdk().startCrawl(`${site.url}/shop`, { limit: 100, sitemap: 'skip', delay: 0.5 });
    const active = await sdk().getActiveCrawls();
    expect(active.success).toBe(true);
    expect(active.crawls.find((c) => c.id === id)).toMatchObject({ id, teamId: inject('teamId'), url: `${site.url}/shop` });
    expect(await sdk().cancelCrawl(id)).toBe(true);
    const status = await sdk().getCrawlStatus(id);
    expect(status.status).toBe('cancelled');
    expect(status.completed).toBeLessThan(100);
    expect((await sdk().getActiveCrawls()).crawls.map((c) => c.id)).not.toContain(id);
    // Cancelling a cancelled crawl keeps it cancelled.
    expect(await sdk().cancelCrawl(id)).toBe(true);
  });

  it('getCrawlErrors lists failed pages and what robots.txt kept the crawl from', async () => {
    const { id } = await sdk().startCrawl(site.url, { includePaths: ['^/always-500$', '^/private'], maxDiscoveryDepth: 2, sitemap: 'skip' });
    const done = await finished(id);
    expect(done.status).toBe('completed');
    expect(done.data.map(pathOf).sort()).toEqual(['/', '/private', '/private/open']);
    const errors = await sdk().getCrawlErrors(id);
    expect(errors.errors).toEqual([expect.objectContaining({ url: `${site.url}/always-500`, code: 'SCRAPE_SITE_ERROR', error: 'The site answered HTTP 500' })]);
    expect(errors.robotsBlocked.map((u) => new URL(u).pathname).sort()).toEqual(['/private/p1', '/private/p2', '/private/p3', '/private/p4']);
    const wire = await api(`/v2/crawl/${id}/errors`);
    expect(sdkShapeProblems(wire.body, 'CrawlErrorsResponse$1')).toEqual([]);
  });

  it('sitemap "only" scrapes the start URL and the URLs its sitemaps list, following no links', async () => {
    const job = await sdk().crawl(site.url, { sitemap: 'only', limit: 50, pollInterval: 1, timeout: 60 });
    expect(job.status).toBe('completed');
    expect(job.data.map(pathOf).sort()).toEqual(['/', '/blog', '/docs', ...site.orphanPaths].sort());
  });

  it('delivers the events a webhook object asks for, with v2 documents', async () => {
    const received: { type: string; id: string; data: Document[]; metadata: Record<string, string> }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, inject('siteHosts')[0], r));
    try {
      const hook = `http://${inject('siteHosts')[0]}:${(receiver.address() as AddressInfo).port}/hook`;
      const job = await sdk().crawl(`${site.url}/blog`, {
        limit: 3,
        sitemap: 'skip',
        webhook: { url: hook, events: ['page', 'completed'], metadata: { run: 'v2' } },
        scrapeOptions: { formats: ['markdown', 'images'] },
        pollInterval: 1,
        timeout: 60,
      });
      for (const deadline = Date.now() + 20_000; !received.some((r) => r.type === 'crawl.completed') && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 200));
      expect(received.map((r) => r.type)).toEqual(['crawl.page', 'crawl.page', 'crawl.page', 'crawl.completed']);
      for (const r of received) expect(r).toMatchObject({ id: job.id, metadata: { run: 'v2' } });
      const pages = received.slice(0, 3).map((r) => r.data[0]!);
      expect(pages.map(pathOf).sort()).toEqual(job.data.map(pathOf).sort());
      expect(pages).toEqual(expect.arrayContaining(job.data));
    } finally {
      receiver.close();
    }
  });

  it('a crawl of another team is not found', async () => {
    const { id } = await sdk().startCrawl(`${site.url}/blog`, { limit: 1, sitemap: 'skip' });
    const other = await api(`/v2/crawl/${id}`, { key: inject('brokeKey') });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
    await finished(id);
  });

  it('refuses options it cannot honour, in the documented error shape', async () => {
    const zdr = await api('/v2/crawl', { body: { url: site.url, zeroDataRetention: true } });
    expect(zdr.status).toBe(400);
    expect(zdr.body).toMatchObject({ success: false, code: 'BAD_REQUEST', details: [{ path: 'zeroDataRetention' }] });
    const summary = await api('/v2/crawl', { body: { url: site.url, scrapeOptions: { formats: ['markdown', 'summary'] } } });
    expect(summary.status).toBe(400);
    expect(summary.body.error).toContain('summary format is only available on POST /v2/scrape');
  });
});

describe('the crawl WebSocket', () => {
  it("the SDK's watcher receives every document and the completion", async () => {
    const { id } = await sdk().startCrawl(`${site.url}/blog`, { limit: 5, sitemap: 'skip', delay: 0.2, scrapeOptions: { formats: ['markdown'] } });
    const watcher = sdk().watcher(id, { kind: 'crawl', pollInterval: 1, timeout: 60 });
    const documents: (Document & { id?: string })[] = [];
    const done: { status: string; data: Document[] }[] = [];
    watcher.on('document', (doc: Document) => documents.push(doc));
    watcher.on('done', (event: { status: string; data: Document[] }) => done.push(event));
    await watcher.start();
    expect(done).toHaveLength(1);
    expect(done[0]!.status).toBe('completed');
    // The WebSocket's `done` carries no documents (they came one by one); a polling fallback's would.
    expect(done[0]!.data).toEqual([]);
    const status = await sdk().getCrawlStatus(id);
    expect(documents).toHaveLength(5);
    expect(documents.map((d) => pathOf(d)).sort()).toEqual(status.data.map(pathOf).sort());
    expect(documents.map(({ id: _id, ...d }) => d)).toEqual(expect.arrayContaining(status.data));
  });

  function watch(id: string, protocols: string[], headers: Record<string, string> = {}) {
    const ws = new WebSocket(`${inject('apiUrl').replace(/^http/, 'ws')}/v2/crawl/${id}`, protocols, { headers });
    return new Promise<{ messages: any[]; code: number } | { status: number; body: any }>((resolve, reject) => {
      const messages: any[] = [];
      ws.on('message', (data) => messages.push(JSON.parse(data.toString('utf8'))));
      ws.on('close', (code) => resolve({ messages, code }));
      ws.on('unexpected-response', (_req, res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      });
      ws.on('error', reject);
    });
  }

  it('streams catchup, one message per page and done, with the key as subprotocol or bearer header', async () => {
    const { id } = await sdk().startCrawl(`${site.url}/blog`, { limit: 5, sitemap: 'skip', delay: 0.3 });
    const live = await watch(id, [inject('apiKey')]);
    if (!('messages' in live)) throw new Error(`refused: ${JSON.stringify(live)}`);
    expect(live.code).toBe(1000);
    const types = live.messages.map((m) => m.type);
    expect(types[0]).toBe('catchup');
    expect(live.messages[0].data).toMatchObject({ status: 'scraping' });
    expect(types.slice(1, -1)).toEqual(Array(5).fill('document'));
    expect(live.messages.at(-1)).toMatchObject({ type: 'done', data: { status: 'completed', total: 5, completed: 5, creditsUsed: 5 } });

    // Watching a finished crawl replays its pages, then done; the key may come as a bearer header.
    const replay = await watch(id, [], { authorization: `Bearer ${inject('apiKey')}` });
    if (!('messages' in replay)) throw new Error(`refused: ${JSON.stringify(replay)}`);
    expect(replay.messages.map((m) => m.type)).toEqual([...Array(5).fill('document'), 'done']);
    const polled = await sdk().getCrawlStatus(id);
    expect(replay.messages.slice(0, 5).map((m) => m.data)).toEqual(polled.data);
  });

  it('refuses a bad key or an unknown crawl before upgrading, in the API error shape', async () => {
    const { id } = await sdk().startCrawl(`${site.url}/blog`, { limit: 1, sitemap: 'skip' });
    expect(await watch(id, ['wcs_wrong'])).toEqual({ status: 401, body: { success: false, code: 'UNAUTHORIZED', error: 'Unknown or revoked API key' } });
    expect(await watch(id, [])).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expect(await watch('00000000-0000-4000-8000-000000000000', [inject('apiKey')])).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await watch(id, [inject('brokeKey')])).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    await finished(id);
  });
});

describe('params-preview and crawl prompts', () => {
  it('answer 422 LLM_NOT_CONFIGURED without an LLM', async () => {
    const refused = await sdk()
      .crawlParamsPreview(site.url, 'only the blog')
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SdkError);
    expect(refused).toMatchObject({ status: 422, code: 'LLM_NOT_CONFIGURED' });
    const crawl = await api('/v2/crawl', { body: { url: site.url, prompt: 'only the blog' } });
    expect(crawl.status).toBe(422);
    expect(crawl.body).toMatchObject({ success: false, code: 'LLM_NOT_CONFIGURED' });
  });

  describe('with an LLM (a local server speaking the OpenAI protocol)', () => {
    let llm: LlmStack;
    const sdkOnLlmStack = () => sdk(llm.stack.apiUrl);

    beforeAll(async () => {
      llm = await startLlmStack('v2-crawl-llm', { allowPrivateHosts: [new URL(site.url).host] });
    });
    afterAll(async () => {
      await llm?.stop();
    });

    it('params-preview turns the prompt into options the model chose', async () => {
      llm.fake.script(() => ({ content: JSON.stringify({ includePaths: ['^/blog'], maxDiscoveryDepth: 2, sitemap: 'skip' }) }));
      const preview = await sdkOnLlmStack().crawlParamsPreview(site.url, 'Only the blog posts, two levels deep');
      expect(preview).toEqual({ url: `${site.url}/`, includePaths: ['^/blog'], maxDiscoveryDepth: 2, sitemap: 'skip' });
      expect(llm.fake.requests).toHaveLength(1);
      expect(llm.fake.requests[0]!.messages.at(-1)!.content).toContain('Only the blog posts, two levels deep');
      expect(llm.fake.requests[0]!.response_format?.type).toBe('json_schema');
    });

    it('a crawl with a prompt follows the derived options, the explicit ones winning', async () => {
      llm.fake.script(() => ({ content: JSON.stringify({ includePaths: ['^/blog'], maxDiscoveryDepth: 3, sitemap: 'include' }) }));
      const job = await sdkOnLlmStack().crawl(site.url, { prompt: 'the blog', maxDiscoveryDepth: 1, sitemap: 'skip', pollInterval: 1, timeout: 60 });
      expect(job.status).toBe('completed');
      expect(job.data.map(pathOf).sort()).toEqual(['/', '/blog', '/blog/p1']);
    });

    it('an unusable answer is a 502 LLM_ERROR naming the problem', async () => {
      llm.fake.script(() => ({ content: JSON.stringify({ includePaths: '^/blog', depth: 2 }) }));
      const { status, body } = await api('/v2/crawl/params-preview', { body: { url: site.url, prompt: 'the blog' }, baseUrl: llm.stack.apiUrl });
      expect(status).toBe(502);
      expect(body).toMatchObject({ success: false, code: 'LLM_ERROR' });
      expect(body.details.map((d: { path: string }) => d.path).sort()).toEqual(['depth', 'includePaths']);
    });
  });
});
