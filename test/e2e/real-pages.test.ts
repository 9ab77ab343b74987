import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadWcxb, type WcxbPage, type WcxbPageType } from '../content/wcxb-corpus';
import { wordF1 } from '../content/word-f1';
import { api, fixture } from '../helpers/api';

/**
 * Real pages saved from the web (test/fixtures/wcxb: WCXB, Murrough Foley 2026, CC-BY-4.0),
 * served from 127.0.0.2 at their original paths and scraped through the whole service.
 */
const pages = loadWcxb(path.join(__dirname, '../fixtures/wcxb'));

/**
 * Per-page word F1 floors: regression guards just under today's worst page of each type here
 * (not the targets, which docs/benchmarks.md's content bench tracks).
 */
const MIN_F1: Record<WcxbPageType, number> = {
  article: 0.55,
  documentation: 0.9,
  forum: 0.9,
  service: 0.93,
  product: 0.58,
  // 0638's grid is built by a script from JSON: over plain HTTP only its chrome is there.
  collection: 0.08,
  listing: 0.52,
};

/** Share of these pages whose type must be recognised: the detector's accuracy floor (22 of 30 through the content pipeline in process today). */
const MIN_TYPE_ACCURACY = 0.7;

/** One server per page, each at the page's original path: several pages are a site's home page. */
const sites = new Map<string, { server: http.Server; origin: string }>();

beforeAll(async () => {
  for (const page of pages) {
    const server = http.createServer((req, res) => {
      if (req.url !== pathOf(page)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(page.html);
    });
    server.listen(0, inject('siteHosts')[0]);
    await once(server, 'listening');
    sites.set(page.id, { server, origin: `http://${inject('siteHosts')[0]}:${(server.address() as AddressInfo).port}` });
  }
});

afterAll(() => Promise.all([...sites.values()].map(({ server }) => new Promise<void>((resolve) => server.close(() => resolve())))));

function pathOf(page: WcxbPage): string {
  const url = new URL(page.url);
  return url.pathname + url.search;
}

const detected = new Map<string, string>();

describe('real pages', () => {
  it.each(pages.map((p) => [p.id, p.pageType, p] as const))('scrapes %s (%s) with its main content', async (_id, type, page) => {
    const { status, body } = await api('/v1/scrape', { body: { url: `${sites.get(page.id)!.origin}${pathOf(page)}`, formats: ['markdown', 'text'], timeout: 60_000 } });
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.data.markdown.length).toBeGreaterThan(0);
    expect(body.data.metadata.mainContent.method).toMatch(/^(region|readability|full-page)$/);
    detected.set(page.id, body.data.metadata.pageType);
    // A page whose ground truth is empty (a script-built page saved before it rendered) has no F1.
    if (page.mainContent.trim()) expect(wordF1(body.data.text, page.mainContent).f1).toBeGreaterThanOrEqual(MIN_F1[type]);
  });

  it('recognises the page type of most of them', () => {
    expect(detected.size).toBe(pages.length);
    const right = pages.filter((p) => detected.get(p.id) === p.pageType).length;
    expect(right / pages.length).toBeGreaterThanOrEqual(MIN_TYPE_ACCURACY);
  });
});

describe('main-content fallbacks', () => {
  it('names the extractor that ran and why the ones before it were passed over', async () => {
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/named-chrome'), formats: ['markdown'] } });
    expect(status).toBe(200);
    expect(body.data.metadata.mainContent).toMatchObject({
      method: 'readability',
      passedOver: [
        { method: 'region', reason: expect.stringMatching(/^kept \d+ of \d+ characters$/) },
        { method: 'region', reason: expect.stringMatching(/^kept \d+ of \d+ characters$/) },
      ],
    });
    expect(body.data.markdown).toContain('[Lighthouse 3]');
  });

  it('keeps only what lies outside the menus, header and footer of a page made of them, or nothing and says why', async () => {
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/chrome-only'), formats: ['markdown'] } });
    expect(status).toBe(200);
    expect(body.data.markdown).toBe('Tiny.');
    expect(body.data.metadata.mainContent).toMatchObject({ method: 'region' });
    const whole = await api('/v1/scrape', { body: { url: fixture('/chrome-only'), formats: ['markdown'], onlyMainContent: false } });
    expect(whole.body.data.markdown).toContain('[Lighthouse 3]');
    const menus = await api('/v1/scrape', { body: { url: fixture('/menus-only'), formats: ['markdown'] } });
    expect(menus.status).toBe(200);
    expect(menus.body.data).toMatchObject({ markdown: '', metadata: { renderer: 'http', mainContent: { method: 'none', ratio: 0 } } });
    expect(menus.body.data.warning).toContain('nothing but its header, footer and menus');
  });

  it('keeps every post of a forum thread with its author and date line', async () => {
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/forum/t/best-lens'), formats: ['markdown', 'text'] } });
    expect(status).toBe(200);
    expect(body.data.metadata.pageType).toBe('forum');
    for (const line of ['by harbourmaster » March 3, 2026', 'by keeper_anna » March 3, 2026', 'by old_salt » March 4, 2026', 'sixth-order Fresnel', 'good LED lamp']) {
      expect(body.data.text).toContain(line);
    }
    expect(body.data.markdown).toContain('by keeper\\_anna » March 3, 2026');
    expect(body.data.text).not.toContain('All rights reserved');
  });
});
