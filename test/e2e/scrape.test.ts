import { describe, expect, it } from 'vitest';
import { ARTICLE_TITLE, FIXTURE_TEXT } from '../fixtures/scrape-pages';
import { api, fixture } from '../helpers/api';

const ALL_FORMATS = ['markdown', 'text', 'html', 'rawHtml', 'links'];

async function scrape(body: Record<string, unknown>) {
  const response = await api('/v1/scrape', { body });
  return response;
}

describe('POST /v1/scrape: an article with boilerplate', () => {
  it('returns every requested format and full metadata', async () => {
    const url = fixture('/article');
    const { status, body } = await scrape({ url, formats: ALL_FORMATS });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    const doc = body.data;
    expect(Object.keys(doc).sort()).toEqual(['html', 'links', 'markdown', 'metadata', 'rawHtml', 'text']);

    expect(doc.markdown).toContain(`# ${ARTICLE_TITLE}`);
    for (const p of FIXTURE_TEXT.ARTICLE_PARAGRAPHS) expect(doc.markdown).toContain(p);
    expect(doc.markdown).toMatch(/\| Lighthouse \| Country \| Height \(m\) \|\n\| --- \| --- \| --- \|\n\| Jeddah Light \| Saudi Arabia \| 133 \|/);
    expect(doc.markdown).toContain(`[our guide to Fresnel lenses](${fixture('/guides/fresnel')})`);
    expect(doc.markdown).toContain(`![A Fresnel lens](${fixture('/images/lens.png')})`);
    expect(doc.markdown).not.toContain('data:image');
    expect(doc.markdown).not.toContain('Careers');
    expect(doc.markdown).not.toContain('All rights reserved');

    expect(doc.text).toContain(FIXTURE_TEXT.ARTICLE_PARAGRAPHS[0]);
    expect(doc.text).toContain('Jeddah Light\tSaudi Arabia\t133');
    expect(doc.text).not.toMatch(/[#|*]/);

    expect(doc.html).toContain('<table>');
    expect(doc.html).not.toContain('<script');
    expect(doc.html).not.toContain('<nav');
    expect(doc.rawHtml).toContain('<nav><a href="/">Home</a>');
    expect(doc.rawHtml).toContain('window.analytics = true;');

    expect(doc.links).toEqual(
      expect.arrayContaining([fixture('/'), fixture('/pricing'), fixture('/guides/fresnel'), fixture('/privacy'), 'https://external.example.org/imprint']),
    );
    expect(doc.links.every((l: string) => /^https?:\/\//.test(l))).toBe(true);

    expect(doc.metadata).toMatchObject({
      title: ARTICLE_TITLE,
      description: 'From open fires to Fresnel lenses: how lighthouses work.',
      language: 'en',
      keywords: 'lighthouse, history, fresnel',
      robots: 'index, follow',
      ogTitle: 'Lighthouses: a history',
      ogDescription: 'OG description of lighthouses',
      ogImage: fixture('/images/og.png'),
      ogSiteName: 'Fixture Corp',
      ogLocale: 'en_US',
      publishedTime: '2026-01-15T08:00:00Z',
      favicon: fixture('/favicon.png'),
      sourceURL: url,
      url,
      statusCode: 200,
      contentType: 'text/html; charset=utf-8',
      creditsUsed: 1,
      renderer: 'http',
      pageType: 'article',
      // The region holds the article; Readability holds it more tightly, so it is taken.
      mainContent: { method: 'readability', passedOver: [{ method: 'region', reason: expect.stringContaining('more tightly') }] },
    });
    expect(doc.metadata.scrapeId).toMatch(/^[0-9a-f-]{36}$/);
    expect(doc.metadata.mainContent.ratio).toBeGreaterThan(0.3);
    expect(doc.metadata.mainContent.ratio).toBeLessThan(1);
    expect(doc.metadata.timing).toMatchObject({ fetchMs: expect.any(Number), convertMs: expect.any(Number) });
  });

  it('defaults to markdown only', async () => {
    const { body } = await scrape({ url: fixture('/article') });
    expect(Object.keys(body.data).sort()).toEqual(['markdown', 'metadata']);
  });

  it('keeps the boilerplate without onlyMainContent', async () => {
    const { body } = await scrape({ url: fixture('/article'), onlyMainContent: false, formats: ['markdown'] });
    expect(body.data.markdown).toContain('[Careers]');
    expect(body.data.markdown).toContain('All rights reserved');
    expect(body.data.metadata.mainContent).toBeUndefined();
  });

  it('applies includeTags and excludeTags', async () => {
    const included = await scrape({ url: fixture('/article'), onlyMainContent: false, includeTags: ['table'] });
    expect(included.body.data.markdown.startsWith('| Lighthouse |')).toBe(true);
    expect(included.body.data.markdown).not.toContain(FIXTURE_TEXT.ARTICLE_PARAGRAPHS[0]);

    const excluded = await scrape({ url: fixture('/article'), onlyMainContent: false, excludeTags: ['table', 'footer', '.byline'] });
    expect(excluded.body.data.markdown).not.toContain('Jeddah');
    expect(excluded.body.data.markdown).not.toContain('All rights reserved');
    expect(excluded.body.data.markdown).not.toContain('A. Keeper');
    expect(excluded.body.data.markdown).toContain(FIXTURE_TEXT.ARTICLE_PARAGRAPHS[1]);
  });

  it('keeps base64 images when asked', async () => {
    const { body } = await scrape({ url: fixture('/article'), removeBase64Images: false, formats: ['html'] });
    expect(body.data.html).toContain('data:image/png;base64');
  });
});

describe('POST /v1/scrape: other pages', () => {
  it('renders a JavaScript app shell in the browser automatically', async () => {
    const { status, body } = await scrape({ url: fixture('/js-app'), formats: ['markdown'] });
    expect(status).toBe(200);
    expect(body.data.markdown).toContain('# Rendered by JavaScript');
    for (const item of FIXTURE_TEXT.jsItems) expect(body.data.markdown).toContain(item);
    expect(body.data.metadata).toMatchObject({ renderer: 'browser', statusCode: 200, creditsUsed: 2, title: 'JS App' });
  });

  it('returns the shell as is with engine http', async () => {
    const { body } = await scrape({ url: fixture('/js-app'), engine: 'http' });
    expect(body.data.metadata).toMatchObject({ renderer: 'http', creditsUsed: 1 });
    expect(body.data.markdown).not.toContain('Rendered by JavaScript');
  });

  it('renders in the browser when asked, with the same document shape', async () => {
    const { body } = await scrape({ url: fixture('/article'), engine: 'browser', formats: ['markdown', 'links'] });
    expect(body.data.metadata).toMatchObject({ renderer: 'browser', title: ARTICLE_TITLE, statusCode: 200, creditsUsed: 2 });
    expect(body.data.markdown).toContain(FIXTURE_TEXT.ARTICLE_PARAGRAPHS[2]);
    expect(body.data.links).toContain(fixture('/guides/fresnel'));
  });

  it('follows a redirect chain and reports both URLs', async () => {
    const { body } = await scrape({ url: fixture('/redirect/1') });
    expect(body.data.metadata.sourceURL).toBe(fixture('/redirect/1'));
    expect(body.data.metadata.url).toBe(fixture('/article'));
    expect(body.data.markdown).toContain(`# ${ARTICLE_TITLE}`);
  });

  it("answers 200 with the target's own 404 and 500", async () => {
    const gone = await scrape({ url: fixture('/gone') });
    expect(gone.status).toBe(200);
    expect(gone.body.data.metadata.statusCode).toBe(404);
    expect(gone.body.data.markdown).toContain('This page does not exist');
    const broken = await scrape({ url: fixture('/broken') });
    expect(broken.status).toBe(200);
    expect(broken.body.data.metadata.statusCode).toBe(500);
  });

  it('decodes Shift-JIS and windows-1252 pages', async () => {
    const sjis = await scrape({ url: fixture('/sjis'), formats: ['text'] });
    expect(sjis.body.data.text).toContain(FIXTURE_TEXT.SJIS_TEXT);
    expect(sjis.body.data.metadata.title).toBe('灯台');
    const cp1252 = await scrape({ url: fixture('/cp1252'), formats: ['text'] });
    expect(cp1252.body.data.text).toContain(FIXTURE_TEXT.CP1252_TEXT);
  });

  it('turns a PDF into text, page by page', async () => {
    const { body } = await scrape({ url: fixture('/report.pdf'), formats: ['markdown', 'text'] });
    expect(body.data.text).toContain('Quarterly lighthouse report, page one.');
    expect(body.data.text).toContain('Maintenance schedule on page two.');
    expect(body.data.markdown).toMatch(/page one\.\n\n---\n\nMaintenance/);
    expect(body.data.metadata).toMatchObject({ title: 'Fixture PDF Report', numPages: 2, contentType: 'application/pdf' });
  });

  it('puts JSON and plain text in fenced blocks', async () => {
    const json = await scrape({ url: fixture('/data.json') });
    expect(json.body.data.markdown).toBe('```json\n{\n  "name": "lighthouse",\n  "height": 133,\n  "tags": [\n    "sea",\n    "light"\n  ]\n}\n```');
    const text = await scrape({ url: fixture('/notes.txt') });
    expect(text.body.data.markdown).toBe('```\nPlain notes.\nSecond line.\n```');
  });
});

describe('POST /v1/scrape: maxAge', () => {
  it('answers from a stored copy no older than maxAge, with the same variant, and fetches otherwise', async () => {
    const url = fixture(`/counter?id=${Date.now()}`);
    const first = await scrape({ url });
    expect(first.body.data.markdown).toContain('# Visit 1');
    expect(first.body.data.metadata.cacheState).toBeUndefined();

    const cached = await scrape({ url, maxAge: 60_000 });
    expect(cached.body.data.markdown).toContain('# Visit 1');
    expect(cached.body.data.metadata).toMatchObject({ cacheState: 'hit', cachedAt: expect.any(String), creditsUsed: 1 });
    expect(cached.body.data.metadata.scrapeId).not.toBe(first.body.data.metadata.scrapeId);

    const otherVariant = await scrape({ url, maxAge: 60_000, onlyMainContent: false });
    expect(otherVariant.body.data.markdown).toContain('# Visit 2');
    const fresh = await scrape({ url });
    expect(fresh.body.data.markdown).toContain('# Visit 3');
    // Copies stored without the html format cannot answer for it.
    const withHtml = await scrape({ url, maxAge: 60_000, formats: ['markdown', 'html'] });
    expect(withHtml.body.data.metadata.cacheState).toBeUndefined();
    expect(withHtml.body.data.html).toContain('Visit 4');
    const htmlCached = await scrape({ url, maxAge: 60_000, formats: ['html'] });
    expect(htmlCached.body.data).toMatchObject({ html: withHtml.body.data.html, metadata: { cacheState: 'hit' } });
  });
});

describe('POST /v1/scrape: failures', () => {
  it('answers 408 when the page outlives the timeout', async () => {
    const started = Date.now();
    const { status, body } = await scrape({ url: fixture('/slow?ms=8000'), timeout: 2000 });
    expect(status).toBe(408);
    expect(body).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(7000);
  });

  it('refuses a page over the size limit', async () => {
    const { status, body } = await scrape({ url: fixture('/huge') });
    expect(status).toBe(502);
    expect(body.code).toBe('SCRAPE_TOO_LARGE');
  });

  it('gives up on a redirect loop', async () => {
    const { status, body } = await scrape({ url: fixture('/redirect-loop') });
    expect(status).toBe(502);
    expect(body.code).toBe('SCRAPE_CONNECTION_ERROR');
    expect(body.error).toContain('redirected more than 10 times');
  });

  it('reports an unresolvable host', async () => {
    const { status, body } = await scrape({ url: 'http://no-such-host.invalid/' });
    expect(status).toBe(502);
    expect(body.code).toBe('SCRAPE_DNS_RESOLUTION_ERROR');
  });

  it('validates the body with details', async () => {
    const bad = await scrape({ url: fixture('/article'), waitFor: 20000, timeout: 30000, formats: ['pdf'], nope: true });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('BAD_REQUEST');
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['formats.0', 'nope']);
    const wait = await scrape({ url: fixture('/article'), waitFor: 20000 });
    expect(wait.body.details).toEqual([{ path: 'waitFor', message: 'waitFor (20000) must be at most half of timeout (30000)' }]);
    const missing = await scrape({});
    expect(missing.body.details[0].path).toBe('url');
    const malformed = await api('/v1/scrape', { rawBody: '{"url": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('BAD_REQUEST_INVALID_JSON');
    const notUrl = await scrape({ url: 'not a url' });
    expect(notUrl.status).toBe(400);
  });

  it('refuses an oversized body with 413', async () => {
    const { status, body } = await api('/v1/scrape', { rawBody: JSON.stringify({ url: fixture('/article'), headers: { x: 'a'.repeat(2 * 1024 * 1024) } }) });
    expect(status).toBe(413);
    expect(body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers unknown routes with the error shape', async () => {
    const { status, body } = await api('/v1/nothing-here');
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, code: 'NOT_FOUND', error: 'No route for GET /v1/nothing-here' });
  });
});
