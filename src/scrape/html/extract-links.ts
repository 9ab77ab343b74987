import type { CheerioAPI } from 'cheerio';
import { absoluteHttpUrl } from './base-url';

/** Every distinct http(s) link target on the page, absolute, in document order. */
export function extractLinks($: CheerioAPI, base: string): string[] {
  const links = new Set<string>();
  $('a[href], area[href]').each((_, el) => {
    const url = absoluteHttpUrl($(el).attr('href'), base);
    if (url) links.add(url);
  });
  return [...links];
}
