import { FirecrawlAppV1 as FirecrawlApp } from '@mendable/firecrawl-js';

/** What the v1 client throws (its FirecrawlError class is not exported by firecrawl-js 4). */
type FirecrawlError = Error & { statusCode: number };

/** firecrawl-js 4's v1 `scrapeUrl` reads `params.origin` unguarded, so it needs an object. */
const NO_PARAMS = {};
import { describe, expect, inject, it } from 'vitest';
import { api, fixture } from '../helpers/api';

/** Metadata that differs between two calls of the same request. */
function stable(metadata: Record<string, unknown>) {
  const { scrapeId: _id, timing: _timing, ...rest } = metadata;
  return rest;
}

function sdk(): FirecrawlApp {
  return new FirecrawlApp({ apiKey: inject('apiKey'), apiUrl: inject('apiUrl') });
}

describe('the Firecrawl v1 client (FirecrawlAppV1 of @mendable/firecrawl-js@4) against this service', () => {
  const requests: [string, Record<string, unknown>][] = [
    ['an article in every format', { url: fixture('/article'), formats: ['markdown', 'html', 'rawHtml', 'links'] }],
    ['an article without main-content extraction', { url: fixture('/article'), onlyMainContent: false, excludeTags: ['table'] }],
    ['a JavaScript app rendered in the browser', { url: fixture('/js-app'), formats: ['markdown', 'links'] }],
    ['a PDF', { url: fixture('/report.pdf') }],
    ['a 404 page', { url: fixture('/gone') }],
  ];

  for (const [name, request] of requests) {
    it(`scrapeUrl returns the document the API returns: ${name}`, async () => {
      const { url, ...params } = request;
      const fromSdk = await sdk().scrapeUrl(url as string, params as Parameters<FirecrawlApp['scrapeUrl']>[1]);
      const fromApi = await api('/v1/scrape', { body: request });
      expect(fromApi.status).toBe(200);
      expect(fromSdk.success).toBe(true);
      if (!fromSdk.success) return;
      const { success: _s, warning, error, metadata, ...formats } = fromSdk as unknown as Record<string, unknown> & { metadata: Record<string, unknown> };
      const { metadata: apiMetadata, warning: _apiWarning, ...apiFormats } = fromApi.body.data;
      expect(warning).toBe(fromApi.body.data.warning);
      expect(error).toBeUndefined();
      expect(Object.keys(formats).sort()).toEqual([...((params.formats as string[] | undefined) ?? ['markdown'])].sort());
      expect(String(formats.markdown ?? formats.html).length).toBeGreaterThan(20);
      expect(formats).toEqual(apiFormats);
      expect(stable(metadata)).toEqual(stable(apiMetadata));
      expect(metadata.scrapeId).not.toBe(apiMetadata.scrapeId);
    });
  }

  it('throws an error with our status code when the API refuses', async () => {
    const refused = await sdk()
      .scrapeUrl('http://169.254.169.254/latest/meta-data/', NO_PARAMS)
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as FirecrawlError).statusCode).toBe(403);
    expect((refused as Error).message).toContain('not a public address');

    const unauthorized = await new FirecrawlApp({ apiKey: 'wcs_wrong', apiUrl: inject('apiUrl') })
      .scrapeUrl(fixture('/article'), NO_PARAMS)
      .catch((err: unknown) => err);
    expect((unauthorized as FirecrawlError).statusCode).toBe(401);
  });
});
