import Firecrawl, { SdkError, type BatchScrapeJob, type Document } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site';
import { api } from '../helpers/api';
import { sdkShapeProblems } from '../helpers/sdk-types';

let site: CrawlSite;

beforeAll(async () => {
  site = await startCrawlSite(inject('siteHosts')[1]!, { pagesPerSection: 30 });
});
afterAll(async () => {
  await site?.close();
});

function sdk(): Firecrawl {
  return new Firecrawl({ apiKey: inject('apiKey'), apiUrl: inject('apiUrl') });
}

const pathOf = (doc: Document) => new URL(doc.metadata!.sourceURL!).pathname.replace(/\/+$/, '') || '/';
const urlsOf = (paths: string[]) => paths.map((p) => `${site.url}${p}`);

/** Polls through the SDK, without following `next`, until the batch ends. */
async function finished(id: string): Promise<BatchScrapeJob> {
  for (const deadline = Date.now() + 60_000; ; ) {
    const status = await sdk().getBatchScrapeStatus(id, { autoPaginate: false });
    if (status.status !== 'scraping') return status;
    if (Date.now() > deadline) throw new Error(`batch ${id} still running: ${status.completed}/${status.total}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('batch scrape with the v2 client (default Firecrawl export of @mendable/firecrawl-js@4)', () => {
  it('batchScrape waits for the batch and returns one v2 document per URL', async () => {
    const job = await sdk().batchScrape(urlsOf(['/docs', '/blog/p1', '/shop/p2']), {
      options: { formats: ['markdown', 'links', { type: 'attributes', selectors: [{ selector: 'nav a', attribute: 'href' }] }] },
      pollInterval: 1,
      timeout: 60,
    });
    expect(job.status).toBe('completed');
    expect(job.completed).toBe(3);
    expect(job.creditsUsed).toBe(3);
    expect(job.data.map(pathOf).sort()).toEqual(['/blog/p1', '/docs', '/shop/p2']);
    for (const doc of job.data) {
      expect(doc.markdown).toContain(`Page ${pathOf(doc)}`);
      expect(doc.links).toContain(`${site.url}/private`);
      expect(doc.attributes).toEqual([{ selector: 'nav a', attribute: 'href', values: ['/', '/docs', '/blog', '/shop', '/private'] }]);
      expect(doc.rawHtml).toBeUndefined();
    }
    const { body } = await api(`/v2/batch/scrape/${job.id}`);
    expect(job.data).toEqual(body.data);
  });

  it('skips invalid URLs by default and lists them, or refuses the batch when asked to', async () => {
    const blocked = 'http://169.254.169.254/latest/meta-data/';
    const started = await sdk().startBatchScrape([...urlsOf(['/blog/p2']), blocked, 'not a url']);
    expect(started.invalidURLs).toEqual([blocked, 'not a url']);
    expect(started.url).toBe(`${inject('apiUrl')}/v2/batch/scrape/${started.id}`);
    const done = await finished(started.id);
    expect(done.data.map(pathOf)).toEqual(['/blog/p2']);

    const refused = await sdk()
      .startBatchScrape([...urlsOf(['/blog/p2']), blocked], { ignoreInvalidURLs: false })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SdkError);
    expect(refused).toMatchObject({ status: 403, code: 'URL_BLOCKED' });
    expect((refused as Error).message).toContain('not a public address');
  });

  it('getBatchScrapeStatus pages by next, and the JSON is what the SDK declares', async () => {
    const paths = ['docs', 'blog', 'shop', 'private'].flatMap((s) => Array.from({ length: 30 }, (_, i) => `/${s}/p${(i % 4) + 1}${'/p1'.repeat(Math.floor(i / 4))}`));
    const unique = [...new Set(paths)].slice(0, 104);
    const { id } = await sdk().startBatchScrape(urlsOf(['/', ...unique]), { maxConcurrency: 20 });
    const first = await finished(id);
    expect(first).toMatchObject({ status: 'completed', total: 105, completed: 105, next: `${inject('apiUrl')}/v2/batch/scrape/${id}?skip=100&limit=100` });
    expect(first.data).toHaveLength(100);
    const all = await sdk().getBatchScrapeStatus(id);
    expect(all.data).toHaveLength(105);
    expect(all.data.map(pathOf).sort()).toEqual(['/', ...unique].map((p) => p.replace(/\/+$/, '') || '/').sort());

    const page1 = await api(`/v2/batch/scrape/${id}`);
    expect(sdkShapeProblems({ id, ...page1.body }, 'BatchScrapeJob')).toEqual([]);
    const next = new URL(page1.body.next);
    const page2 = await api(next.pathname + next.search);
    expect(page2.body.next).toBeUndefined();
    expect(sdkShapeProblems({ id, ...page2.body }, 'BatchScrapeJob')).toEqual([]);
  });

  it('getBatchScrapeErrors lists the pages that failed', async () => {
    const { id } = await sdk().startBatchScrape(urlsOf(['/docs/p3', '/always-500']));
    const done = await finished(id);
    expect(done.data.map(pathOf)).toEqual(['/docs/p3']);
    const errors = await sdk().getBatchScrapeErrors(id);
    expect(errors.errors).toEqual([expect.objectContaining({ url: `${site.url}/always-500`, code: 'SCRAPE_SITE_ERROR', error: 'The site answered HTTP 500' })]);
    expect(errors.robotsBlocked).toEqual([]);
    expect(sdkShapeProblems((await api(`/v2/batch/scrape/${id}/errors`)).body, 'CrawlErrorsResponse$1')).toEqual([]);
  });

  it('cancelBatchScrape stops the batch and keeps what was scraped', async () => {
    const { id } = await sdk().startBatchScrape(urlsOf(['/slow', ...Array.from({ length: 20 }, (_, i) => `/docs/p${(i % 4) + 1}${'/p2'.repeat(Math.floor(i / 4))}`)]), { maxConcurrency: 1 });
    expect(await sdk().cancelBatchScrape(id)).toBe(true);
    const status = await sdk().getBatchScrapeStatus(id);
    expect(status.status).toBe('cancelled');
    expect(status.completed).toBeLessThan(21);
    const other = await api(`/v2/batch/scrape/${id}`, { key: inject('brokeKey') });
    expect(other.status).toBe(404);
  });

  it("the SDK's watcher follows a batch over the WebSocket", async () => {
    const { id } = await sdk().startBatchScrape(urlsOf(['/docs/p1', '/blog/p3', '/shop/p4']));
    const watcher = sdk().watcher(id, { kind: 'batch', pollInterval: 1, timeout: 60 });
    const documents: Document[] = [];
    const done: { status: string; data: Document[] }[] = [];
    watcher.on('document', (doc: Document) => documents.push(doc));
    watcher.on('done', (event: { status: string; data: Document[] }) => done.push(event));
    await watcher.start();
    // The WebSocket's `done` carries no documents (they came one by one); a polling fallback's would.
    expect(done).toEqual([expect.objectContaining({ status: 'completed', data: [] })]);
    expect(documents.map(pathOf).sort()).toEqual(['/blog/p3', '/docs/p1', '/shop/p4']);
  });

  it('a job started under /v1 reads as v2 documents under /v2, and the other way round', async () => {
    const v1 = await api('/v1/batch/scrape', { body: { urls: urlsOf(['/blog/p4']), formats: ['markdown', 'text'] } });
    expect(v1.status).toBe(200);
    const asV2 = await finished(v1.body.id);
    expect(asV2.data).toHaveLength(1);
    expect(asV2.data[0]).toMatchObject({ markdown: expect.stringContaining('Page /blog/p4'), text: expect.stringContaining('Page /blog/p4'), metadata: { cacheState: 'miss' } });

    const v2 = await sdk().batchScrape(urlsOf(['/shop/p1']), { options: { formats: ['links', 'images'] }, pollInterval: 1, timeout: 60 });
    const asV1 = await api(`/v1/batch/scrape/${v2.id}`);
    expect(asV1.body.data).toHaveLength(1);
    // v1 shows the formats the internal scrape produced: links, and the raw HTML images are read from.
    expect(Object.keys(asV1.body.data[0]).sort()).toEqual(['links', 'metadata', 'rawHtml']);
    expect(v2.data[0]!.images).toEqual([]);
  });

  it('batch pages answer later scrapes through maxAge, unless storeInCache is false', async () => {
    const [cached, uncached] = urlsOf(['/orphans/one', '/orphans/two']);
    await sdk().batchScrape([cached!], { pollInterval: 1, timeout: 60 });
    await sdk().batchScrape([uncached!], { options: { storeInCache: false }, pollInterval: 1, timeout: 60 });
    expect((await sdk().scrape(cached!)).metadata).toMatchObject({ cacheState: 'hit' });
    expect((await sdk().scrape(uncached!)).metadata).toMatchObject({ cacheState: 'miss' });
  });

  it('refuses formats a stored page cannot give, in the documented error shape', async () => {
    const { status, body } = await api('/v2/batch/scrape', { body: { urls: urlsOf(['/docs']), formats: ['markdown', 'changeTracking'] } });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('changeTracking format is only available on POST /v2/scrape') });
  });
});
