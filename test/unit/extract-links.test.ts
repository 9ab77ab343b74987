import { describe, expect, it } from 'vitest';
import { extractLinks } from '../../src/scrape/html/extract-links';
import { parsePage } from '../../src/scrape/html/parse-document';
import { scanPage } from '../../src/scrape/html/scan-page';
import { processHtml } from '../../src/scrape/process/process-html';

const BASE = 'https://example.com/docs/';
const anchorsOf = (body: string) => scanPage(parsePage(`<!doctype html><html><body>${body}</body></html>`)).anchors;

describe('extractLinks', () => {
  const page = anchorsOf(
    ['<a href="a">A</a>', '<a href="mailto:x@example.com">mail</a>', '<a href="a">A again</a>', '<a href="/docs/a">A absolute</a>', '<a href="b#top">B</a>', '<a href="javascript:void(0)">js</a>', '<a href="c">C</a>', '<area href="https://other.example/d">', '<a href="c">C again</a>'].join(''),
  );

  it('keeps every distinct http(s) link, absolute, in document order', () => {
    expect(extractLinks(page, BASE)).toEqual({
      links: ['https://example.com/docs/a', 'https://example.com/docs/b#top', 'https://example.com/docs/c', 'https://other.example/d'],
      total: 4,
    });
  });

  it('keeps the first `max` and counts the rest, without other schemes or repeats', () => {
    expect(extractLinks(page, BASE, 2)).toEqual({ links: ['https://example.com/docs/a', 'https://example.com/docs/b#top'], total: 4 });
  });

  it('caps a page of many links at the cap, in document order, and says how many it has', () => {
    const html = `<!doctype html><html><body><p>intro</p>${Array.from({ length: 12_000 }, (_, i) => `<a href="/p/${i}">link ${i}</a>`).join('')}</body></html>`;
    const { links, metadata } = processHtml(html, 'https://example.com/', { formats: ['markdown'], onlyMainContent: false, removeBase64Images: true, maxLinks: 5_000 });
    expect(links).toHaveLength(5_000);
    expect(links.at(-1)).toBe('https://example.com/p/4999');
    expect(metadata).toMatchObject({ linksTotal: 12_000, linksTruncated: true });
  });

  it('says nothing of a page within the cap', () => {
    const { links, metadata } = processHtml('<p><a href="/a">a</a> <a href="/b">b</a></p>', 'https://example.com/', { formats: ['markdown'], onlyMainContent: false, removeBase64Images: true, maxLinks: 2 });
    expect(links).toEqual(['https://example.com/a', 'https://example.com/b']);
    expect(metadata).not.toHaveProperty('linksTotal');
    expect(metadata).not.toHaveProperty('linksTruncated');
  });
});

describe('a base that would make every relative link long', () => {
  // A 20,000-character <base href> under 27,000 relative links resolved to 540 MB of URLs, more
  // than a processing thread's heap; resolving may add at most 2,048 characters to a reference.
  const base = `https://example.com/${'a'.repeat(20_000)}/`;
  const html = `<!doctype html><html><head><base href="${base}"></head><body><p>${'<a href="x">y</a> '.repeat(1_000)}<a href="https://example.com/z">z</a></p></body></html>`;

  it('leaves those links as written: out of `links`, relative in the markdown and html', () => {
    const { links, markdown, html: cleaned } = processHtml(html, 'https://example.com/', { formats: ['markdown', 'html'], onlyMainContent: false, removeBase64Images: true });
    expect(links).toEqual(['https://example.com/z']);
    expect(markdown).toContain('[y](x)');
    expect(markdown.length).toBeLessThan(20_000);
    expect(cleaned).toContain('<a href="x">y</a>');
  });

  it('still resolves links against a base of ordinary length', () => {
    const { links } = processHtml(html.replace(base, 'https://example.com/docs/'), 'https://example.com/', { formats: ['markdown'], onlyMainContent: false, removeBase64Images: true });
    expect(links).toEqual(['https://example.com/docs/x', 'https://example.com/z']);
  });
});
