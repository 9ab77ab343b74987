import { FirecrawlAppV1 as FirecrawlApp } from '@mendable/firecrawl-js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ledger, searchSynonyms } from '../../src/db/schema';
import type { FixtureServer } from '../fixtures/fixture-server';
import { startSearchSite } from '../fixtures/search-site';
import { api } from '../helpers/api';
import { waitForCrawl } from '../helpers/crawl';
import { testDatabase } from '../helpers/db';

/** The shared stack searches with the embedded default provider: this deployment's own pages. */
let site: FixtureServer;
const at = (path: string) => `${site.url}${path}`;

async function chargesOf(jobId: string): Promise<number[]> {
  const rows = await testDatabase().db.select({ amount: ledger.amount }).from(ledger).where(eq(ledger.jobId, jobId));
  return rows.map((r) => r.amount);
}

async function search(body: Record<string, unknown>) {
  const response = await api('/v1/search', { body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

const ofSite = (results: { url: string }[]) => results.map((r) => r.url).filter((u) => u.startsWith(site.url)).map((u) => new URL(u).pathname);

beforeAll(async () => {
  site = await startSearchSite(inject('siteHosts')[1]!);
  const { body } = await api('/v1/crawl', { body: { url: `${site.url}/`, limit: 20 } });
  const crawl = await waitForCrawl(body.id);
  expect(crawl.status).toBe('completed');
  expect(crawl.completed).toBe(6);
});
afterAll(() => site?.close());

describe('POST /v1/search with the local index', () => {
  it('ranks the page about the query\'s topic first, ahead of a page that mentions it in passing', async () => {
    const body = await search({ query: 'axolotl water temperature', limit: 5 });
    expect(ofSite(body.data)[0]).toBe('/axolotl-care');
    expect(ofSite(body.data)).toContain('/theremin-lessons');
    const [first] = body.data;
    expect(first).toMatchObject({ url: at('/axolotl-care'), title: 'Axolotl care: water temperature and feeding', description: 'Keeping an axolotl healthy in a home aquarium.' });
    expect(first.score).toBeGreaterThan(body.data[1].score);
    expect(first.markdown).toBeUndefined();
    expect(body.warning).toBeUndefined();
  });

  it('matches other forms of a word (stemming) and the words of a synonym group', async () => {
    expect(ofSite((await search({ query: 'playing theremins' })).data)[0]).toBe('/theremin-lessons');
    expect(ofSite((await search({ query: 'a long run' })).data)[0]).toBe('/marathon-training');
    // "automobile" appears nowhere on the site; the seeded group car/automobile/auto/vehicle finds the car page.
    expect(ofSite((await search({ query: 'automobile' })).data)).toEqual(['/family-car-guide']);
  });

  it('widens queries with synonym groups operators add (a stop word in a group is ignored)', async () => {
    const { db } = testDatabase();
    expect(ofSite((await search({ query: 'salamander' })).data)).toEqual([]);
    const [group] = await db.insert(searchSynonyms).values({ config: 'english', words: ['salamander', 'the', 'axolotl'] }).returning();
    try {
      expect(ofSite((await search({ query: 'salamander' })).data)[0]).toBe('/axolotl-care');
    } finally {
      await db.delete(searchSynonyms).where(eq(searchSynonyms.id, group!.id));
    }
  });

  it('searches the pages of the requested language with that language\'s stemmer', async () => {
    // German stemming: "Haus" finds "Häuser", but only when the query is German.
    expect(ofSite((await search({ query: 'Haus am Rhein', lang: 'de' })).data)).toEqual(['/rhein-haeuser']);
    expect(ofSite((await search({ query: 'Haus am Rhein', lang: 'en' })).data)).toEqual([]);
  });

  it('scrapes the results when formats are asked for, and charges 5 per scraped result', async () => {
    const body = await search({ query: 'axolotl feeding earthworms', limit: 1, scrapeOptions: { formats: ['markdown', 'links'] } });
    expect(body.data).toHaveLength(1);
    const [result] = body.data;
    expect(result.url).toBe(at('/axolotl-care'));
    expect(result.markdown).toContain('Feed earthworms and sinking pellets');
    expect(result.links).toContain(at('/theremin-lessons'));
    expect(result.metadata).toMatchObject({ sourceURL: at('/axolotl-care'), statusCode: 200, title: 'Axolotl care: water temperature and feeding' });
    expect(await chargesOf(body.id)).toEqual([-5]);
  });

  it('charges the json add-on per returned result only, not for the extra pages it scraped', async () => {
    const body = await search({
      query: 'axolotl feeding earthworms',
      limit: 1,
      scrapeOptions: { formats: ['json'], jsonOptions: { schema: { type: 'object', properties: { title: { type: 'string' } } } } },
    });
    expect(body.data).toHaveLength(1);
    expect(body.data[0].json).toEqual({ title: 'Axolotl care: water temperature and feeding' });
    expect(await chargesOf(body.id)).toEqual([-9]);
  });

  it('charges 2 per result without formats, once', async () => {
    const body = await search({ query: 'axolotl', limit: 2 });
    expect(body.data).toHaveLength(2);
    expect(await chargesOf(body.id)).toEqual([-4]);
  });

  it('answers 200 with no data and a warning when nothing matches, and charges nothing', async () => {
    const body = await search({ query: 'qwxzyv plorbinate' });
    expect(body).toEqual({ success: true, id: expect.any(String), data: [], warning: 'No search results found' });
    expect(await chargesOf(body.id)).toEqual([]);
  });

  it('filters on when pages were scraped with tbs', async () => {
    expect(ofSite((await search({ query: 'axolotl', tbs: 'qdr:h' })).data)).toContain('/axolotl-care');
    expect((await search({ query: 'axolotl', tbs: 'cdr:1,cd_min:1/1/2001,cd_max:12/31/2001' })).data).toEqual([]);
  });

  it('refuses bad requests in the documented shape', async () => {
    for (const [body, path] of [
      [{ query: 'x', limit: 101 }, 'limit'],
      [{ limit: 3 }, 'query'],
      [{ query: '   ' }, 'query'],
      [{ query: 'x', tbs: 'last week' }, 'tbs'],
      [{ query: 'x', scrapeOptions: { formats: ['pdf'] } }, 'scrapeOptions.formats.0'],
      [{ query: 'x', sort: 'date' }, 'sort'],
    ] as const) {
      const { status, body: error } = await api('/v1/search', { body });
      expect(status).toBe(400);
      expect(error).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      expect(error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect((await api('/v1/search', { body: { query: 'x' }, key: inject('brokeKey') })).body.code).toBe('INSUFFICIENT_CREDITS');
  });
});

describe('the Firecrawl v1 SDK (@mendable/firecrawl-js@1) search', () => {
  const sdk = () => new FirecrawlApp({ apiKey: inject('apiKey'), apiUrl: inject('apiUrl') });

  it('returns the ranked results', async () => {
    const answer = await sdk().search('axolotl water temperature', { limit: 3 });
    expect(answer.success).toBe(true);
    expect(answer.data[0]).toMatchObject({ url: at('/axolotl-care'), title: 'Axolotl care: water temperature and feeding' });
  });

  it('returns scraped content with scrapeOptions', async () => {
    const answer = await sdk().search('marathon taper', { limit: 1, scrapeOptions: { formats: ['markdown'] } });
    expect(answer.data).toHaveLength(1);
    expect(answer.data[0]!.url).toBe(at('/marathon-training'));
    expect(answer.data[0]!.markdown).toContain('the mileage drops');
  });
});
