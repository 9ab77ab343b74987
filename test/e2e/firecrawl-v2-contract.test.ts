import { describe, expect, it } from 'vitest';
import { api, fixture } from '../helpers/api';
import { sdkShapeProblems } from '../helpers/sdk-types';

/**
 * The JSON /v2 answers, checked against the interfaces @mendable/firecrawl-js declares in its
 * dist/index.d.ts (read at test time, so an SDK upgrade that changes a shape fails here).
 */
async function ok(path: string, body?: unknown) {
  const response = await api(path, body === undefined ? {} : { body });
  expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(200);
  expect(response.body.success).toBe(true);
  return response.body;
}

describe('v2 responses match the shapes the v2 SDK declares', () => {
  it('scrape: data is a Document with DocumentMetadata', async () => {
    const { data } = await ok('/v2/scrape', { url: fixture('/article'), formats: ['markdown', 'html', 'links', 'images', 'rawHtml'] });
    expect(sdkShapeProblems(data, 'Document')).toEqual([]);
    expect(sdkShapeProblems(data.metadata, 'DocumentMetadata')).toEqual([]);
  });

  it('map: links are SearchResultWeb objects, the answer MapData', async () => {
    await ok('/v2/scrape', { url: fixture('/article') });
    const body = await ok('/v2/map', { url: fixture('/article'), sitemap: 'skip' });
    expect(sdkShapeProblems(body, 'MapData')).toEqual([]);
    expect(body.links.length).toBeGreaterThan(1);
    for (const link of body.links) expect(sdkShapeProblems(link, 'SearchResultWeb')).toEqual([]);
    expect(body.links.some((l: { title?: string }) => typeof l.title === 'string')).toBe(true);
  });

  it('search: data is SearchData, data.web SearchResultWeb (and Document when scraped), data.news SearchResultNews', async () => {
    await ok('/v2/scrape', { url: fixture('/article') });
    const { data } = await ok('/v2/search', { query: 'lighthouses', sources: ['web', 'news'], limit: 3 });
    expect(sdkShapeProblems(data, 'SearchData')).toEqual([]);
    expect(data.web.length).toBeGreaterThan(0);
    for (const result of data.web) expect(sdkShapeProblems(result, 'SearchResultWeb')).toEqual([]);
    for (const result of data.news) expect(sdkShapeProblems(result, 'SearchResultNews')).toEqual([]);

    // What firecrawl-mcp sends by default: cloud tool discovery is answered with no tools.
    const mcp = await ok('/v2/search', { query: 'lighthouses', limit: 2, sources: ['web', 'alexandria'], domainTools: true, toolDetail: 'compact', origin: 'mcp-fastmcp' });
    expect(sdkShapeProblems(mcp.data, 'SearchData')).toEqual([]);
    expect(mcp.data.tools).toEqual([]);
    expect(mcp.data.web.length).toBeGreaterThan(0);
    expect(mcp.warning).toContain('Tool discovery (alexandria, domainTools) is a Firecrawl cloud feature');
    const developer = await api('/v2/search', { body: { query: 'lighthouses', categories: ['developer'] } });
    expect(developer.status).toBe(400);
    expect(developer.body.details).toContainEqual({ path: 'categories', message: 'the developer index is a Firecrawl cloud feature; use github, research or pdf' });

    const scraped = await ok('/v2/search', { query: 'lighthouses', limit: 1, scrapeOptions: { formats: ['markdown'] } });
    expect(sdkShapeProblems(scraped.data.web[0], 'SearchResultWeb')).toEqual([]);
    expect(sdkShapeProblems(scraped.data.web[0], 'Document')).toEqual([]);
  });

  it('team: CreditUsage, TokenUsage, their historical responses, QueueStatusResponse and ConcurrencyCheck', async () => {
    expect(sdkShapeProblems((await ok('/v2/team/credit-usage')).data, 'CreditUsage')).toEqual([]);
    expect(sdkShapeProblems((await ok('/v2/team/token-usage')).data, 'TokenUsage')).toEqual([]);
    const credits = await ok('/v2/team/credit-usage/historical');
    expect(sdkShapeProblems(credits, 'CreditUsageHistoricalResponse')).toEqual([]);
    expect(credits.periods.length).toBeGreaterThan(0);
    expect(sdkShapeProblems(await ok('/v2/team/token-usage/historical'), 'TokenUsageHistoricalResponse')).toEqual([]);
    expect(sdkShapeProblems(await ok('/v2/team/queue-status'), 'QueueStatusResponse$1')).toEqual([]);
    expect(sdkShapeProblems((await ok('/v2/concurrency-check')).data, 'ConcurrencyCheck')).toEqual([]);
  });

  it('extract: the start and status answers are ExtractResponse', async () => {
    const started = await ok('/v2/extract', { urls: [fixture('/article')], schema: { type: 'object', properties: { title: { type: 'string' } } } });
    expect(sdkShapeProblems(started, 'ExtractResponse$1')).toEqual([]);
    const status = await ok(`/v2/extract/${started.id}`);
    expect(sdkShapeProblems(status, 'ExtractResponse$1')).toEqual([]);
  });

  it('errors keep our documented shape, which carries the success: false and error the SDK reads', async () => {
    const { status, body } = await api('/v2/scrape', { body: { url: fixture('/article'), formats: ['nonsense'] } });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, code: 'BAD_REQUEST', error: expect.any(String), details: expect.any(Array) });
  });
});
