import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { edges, pages } from '../../src/db/schema';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { api } from '../helpers/api';
import { allDocuments, waitForCrawl } from '../helpers/crawl';
import { testDatabase } from '../helpers/db';

/** The page: about 4 MB, 100,000 links to pages of the same site. */
const LINKS = 100_000;
const LIMIT = 25;
/** MAX_LINKS_PER_PAGE's documented default; the test stack leaves it unset. */
const MAX_LINKS_PER_PAGE = 5_000;

const startPage = `<!doctype html><html><head><title>Every page</title></head><body><h1>Every page</h1><p>An index of the whole site.</p><ul>
${Array.from({ length: LINKS }, (_, i) => `<li><a href="/p/${i}">Page number ${i}</a></li>`).join('\n')}
</ul></body></html>`;

const leaf = (i: number) =>
  `<!doctype html><html><head><title>Page ${i}</title></head><body><h1>Page ${i}</h1><p>The text of page ${i}.</p><a href="/">Index</a> <a href="/p/${i + 1}">Next</a></body></html>`;

/** Refuses /p/1, /p/10-19, /p/100-199...: 1,111 of the start page's first 5,000 links. */
const blockedByRobots = (path: string) => path.startsWith('/p/1');

let site: FixtureServer;

beforeAll(async () => {
  site = await startFixtureServer(
    {
      '/': (_req, res) => html(res, startPage),
      '/robots.txt': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /p/1\n'),
      '/p/*': (_req, res, url) => html(res, leaf(Number(url.pathname.slice('/p/'.length)))),
    },
    inject('siteHosts')[0]!,
  );
});
afterAll(async () => {
  await site?.close();
});

const pathOf = (url: string) => new URL(url).pathname.replace(/\/+$/, '') || '/';

describe('a crawl whose start page has 100,000 links', () => {
  it('crawls to its limit, with the links capped and counted, and a frontier the size of the limit', { timeout: 240_000 }, async () => {
    expect(startPage.length).toBeGreaterThan(3_500_000);
    // The whole page: on this page the main-content region alone costs seconds more, close to
    // PROCESSING_TIMEOUT_MS, past which the page would come back as text, without links.
    const started = await api('/v1/crawl', { body: { url: site.url, limit: LIMIT, scrapeOptions: { formats: ['markdown', 'links'], onlyMainContent: false } } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const id = started.body.id as string;

    const done = await waitForCrawl(id, { timeoutMs: 200_000 });
    expect(done).toMatchObject({ status: 'completed', completed: LIMIT });
    const docs = await allDocuments(id);
    expect(docs).toHaveLength(LIMIT);

    const start = docs.find((d) => pathOf(d.metadata.sourceURL) === '/')!;
    expect(start.metadata).toMatchObject({ linksTotal: LINKS, linksTruncated: true });
    expect(start.links).toHaveLength(MAX_LINKS_PER_PAGE);
    expect(start.links.slice(0, 2)).toEqual([`${site.url}/p/0`, `${site.url}/p/1`]);
    for (const doc of docs.filter((d) => d !== start)) expect(doc.metadata).not.toHaveProperty('linksTruncated');
    // Admitted in document order: the start page, then its first links robots.txt allows.
    const allowed = Array.from({ length: 100 }, (_, i) => `/p/${i}`).filter((p) => !blockedByRobots(p));
    expect(docs.map((d) => pathOf(d.metadata.sourceURL)).sort()).toEqual(['/', ...allowed.slice(0, LIMIT - 1)].sort());

    // Robots-blocked URLs are recorded within the same room: the first of them, not 1,111.
    const { robotsBlocked } = (await api(`/v1/crawl/${id}/errors`)).body;
    expect(robotsBlocked.length).toBeGreaterThan(0);
    expect(robotsBlocked.length).toBeLessThanOrEqual(LIMIT);
    expect(robotsBlocked.map(pathOf).every(blockedByRobots)).toBe(true);

    const { db } = testDatabase();
    const [frontier] = await db.select({ rows: sql<number>`count(*)::int`, taken: sql<number>`(count(*) filter (where status <> 'blocked'))::int` }).from(pages).where(eq(pages.jobId, id));
    expect(frontier).toEqual({ rows: LIMIT + robotsBlocked.length, taken: LIMIT });
    // The graph links pages to the URLs the crawl holds, not to the 100,000.
    const [graph] = await db.select({ links: sql<number>`coalesce(sum(cardinality(${edges.toKeys})), 0)::int` }).from(edges).where(eq(edges.jobId, id));
    expect(graph!.links).toBeLessThan(LIMIT * 4);
  });
});
