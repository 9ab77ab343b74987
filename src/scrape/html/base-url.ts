import type { CheerioAPI } from 'cheerio';

/** The URL relative references resolve against: `<base href>` when valid, else the page URL. */
export function documentBaseUrl($: CheerioAPI, pageUrl: string): string {
  const href = $('base[href]').first().attr('href');
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

/** Resolves a reference to an absolute http(s) URL, or null for anything else (javascript:, mailto:, junk). */
export function absoluteHttpUrl(ref: string | undefined, base: string): string | null {
  if (!ref) return null;
  try {
    const url = new URL(ref.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
