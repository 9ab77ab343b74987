import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pages } from '../../src/db/schema';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { api } from '../helpers/api';
import { waitForCrawl } from '../helpers/crawl';
import { testDatabase } from '../helpers/db';

/**
 * A page is stored without its search vector and indexed after (docs/operations.md, "Search
 * indexing"): by the worker's indexer within about SEARCH_INDEX_INTERVAL_MS (1 s on this
 * stack) of being stored, and a search never misses a stored page.
 */
const INTERVAL_MS = 1_000;
/** What a loaded test machine adds to one interval: the indexer's pass itself, and polling. */
const SLACK_MS = 2_000;

/** A word no other page of the shared stack has, so a search finds this run's pages only. */
const word = `quokka${randomBytes(4).toString('hex')}`;
let site: FixtureServer;

beforeAll(async () => {
  site = await startFixtureServer(
    {
      '/': (_req, res) => html(res, `<html><head><title>Island fauna</title></head><body><h1>Island fauna</h1><p>Rottnest has small marsupials.</p><a href="/marsupial">Marsupials</a></body></html>`),
      '/marsupial': (_req, res) =>
        html(res, `<html><head><title>The ${word} of Rottnest</title></head><body><h1>The ${word}</h1><p>The ${word} is a small marsupial that lives on Rottnest Island and eats leaves.</p></body></html>`),
    },
    inject('siteHosts')[0]!,
  );
});
afterAll(() => site?.close());

describe('search indexing after storing', () => {
  it('puts a crawled page in the local index within the documented delay, and /v2/search finds it', async () => {
    const { body } = await api('/v1/crawl', { body: { url: `${site.url}/`, limit: 5 } });
    expect((await waitForCrawl(body.id)).status).toBe('completed');
    const { db } = testDatabase();
    const url = `${site.url}/marsupial`;
    // Indexed by the worker's indexer alone: nothing searches for the word before this is seen.
    let delayMs: number | undefined;
    for (const deadline = Date.now() + INTERVAL_MS + SLACK_MS + 5_000; delayMs === undefined && Date.now() < deadline; ) {
      const [page] = await db.select({ scrapedAt: pages.scrapedAt, indexed: pages.searchVector }).from(pages).where(and(eq(pages.jobId, body.id), eq(pages.url, url)));
      // From when the worker stored the page (scrapedAt is set just before its write).
      if (page?.indexed) delayMs = Date.now() - page.scrapedAt!.getTime();
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(delayMs, 'the page was not indexed').toBeDefined();
    expect(delayMs!).toBeLessThanOrEqual(INTERVAL_MS + SLACK_MS);

    const search = await api('/v2/search', { body: { query: word, limit: 5 } });
    expect(search.status, JSON.stringify(search.body)).toBe(200);
    expect(search.body.data.web.map((r: { url: string }) => r.url)).toEqual([url]);
    expect(search.body.data.web[0].title).toBe(`The ${word} of Rottnest`);
  });
});
