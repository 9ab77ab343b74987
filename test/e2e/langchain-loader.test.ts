import { FireCrawlLoader } from '@langchain/community/document_loaders/web/firecrawl';
import { and, desc, eq, gte, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { jobs, pages } from '../../src/db/schema';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site';
import { api } from '../helpers/api';
import { testDatabase } from '../helpers/db';

let site: CrawlSite;

beforeAll(async () => {
  site = await startCrawlSite(inject('siteHosts')[0]!, { pagesPerSection: 4 });
});
afterAll(async () => {
  await site?.close();
});

function loader(mode: 'scrape' | 'crawl' | 'map', url: string, params?: Record<string, unknown>) {
  return new FireCrawlLoader({ url, mode, apiKey: inject('apiKey'), apiUrl: inject('apiUrl'), ...(params && { params }) });
}

/** The team's jobs of a kind on this file's site created since `since`, as stored. */
async function jobsSince(kind: 'crawl' | 'scrape' | 'map', since: Date) {
  return testDatabase()
    .db.select()
    .from(jobs)
    .where(and(eq(jobs.teamId, inject('teamId')), eq(jobs.kind, kind), gte(jobs.createdAt, since), like(jobs.url, `${site.url}%`)))
    .orderBy(desc(jobs.createdAt));
}

/**
 * @langchain/community 1.1's FireCrawlLoader builds the default client of @mendable/firecrawl-js
 * 4 (the v2 client) and then checks `response.success` on what it returns. The v2 client's
 * `scrape`, `crawl` and `map` return a Document, a CrawlJob and {links}, none of which has
 * `success`, so the loader throws "Failed to <mode> URL. Error: undefined" after the service has
 * answered correctly, whatever the service answers. These tests pin that: each mode's request
 * reaches /v2 and succeeds here (the stored job and the API's own answer show it), and the loader
 * rejects with its own message, not an error of ours. When LangChain fixes its check they fail,
 * and should become "returns Documents" tests.
 */
describe('LangChain FireCrawlLoader (@langchain/community 1.1) against this service', () => {
  it('crawl mode: the crawl completes here; the loader rejects the v2 result for lacking `success`', async () => {
    const url = `${site.url}/blog`;
    const since = new Date();
    const refused = await loader('crawl', url, { limit: 10, sitemap: 'skip', maxDiscoveryDepth: 1 })
      .load()
      .catch((err: unknown) => err);
    expect((refused as Error).message).toBe('Firecrawl: Failed to crawl URL. Error: undefined');
    const [job, ...others] = await jobsSince('crawl', since);
    expect(others).toEqual([]);
    expect(job).toMatchObject({ url, status: 'completed', options: expect.objectContaining({ v2Output: expect.anything() }) });
    const status = await api(`/v2/crawl/${job!.id}`);
    expect(status.body.data.map((d: { metadata: { sourceURL: string } }) => new URL(d.metadata.sourceURL).pathname).sort()).toEqual(['/blog', '/blog/p1', '/blog/p2', '/blog/p3', '/blog/p4']);
  });

  it('scrape mode: the page is scraped here; the loader rejects the v2 document for lacking `success`', async () => {
    const url = `${site.url}/docs/p2`;
    const refused = await loader('scrape', url, { formats: ['markdown'] })
      .load()
      .catch((err: unknown) => err);
    expect((refused as Error).message).toBe('Firecrawl: Failed to scrape URL. Error: undefined');
    const [page] = await testDatabase()
      .db.select({ markdown: pages.markdown, status: pages.status })
      .from(pages)
      .innerJoin(jobs, eq(jobs.id, pages.jobId))
      .where(and(eq(jobs.teamId, inject('teamId')), eq(pages.url, url)))
      .orderBy(desc(pages.createdAt))
      .limit(1);
    expect(page).toMatchObject({ status: 'scraped', markdown: expect.stringContaining('Page /docs/p2') });
  });

  it('map mode: the site is mapped here; the loader rejects the v2 result for lacking `success`', async () => {
    const since = new Date();
    const refused = await loader('map', site.url, { sitemap: 'only' })
      .load()
      .catch((err: unknown) => err);
    expect((refused as Error).message).toBe('Firecrawl: Failed to map URL. Error: undefined');
    expect((await jobsSince('map', since)).map((j) => j.status)).toEqual(['completed']);
    const direct = await api('/v2/map', { body: { url: site.url, sitemap: 'only' } });
    expect(direct.status).toBe(200);
    expect(direct.body.links.map((l: { url: string }) => new URL(l.url).pathname)).toEqual(expect.arrayContaining(['/orphans/one', '/orphans/two', '/orphans/three']));
  });
});
