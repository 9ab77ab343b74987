import type { CheerioAPI } from 'cheerio';
import { absoluteHttpUrl } from '../../scrape/html/base-url';
import { snippet } from '../extraction-result';

export type MetaSource = 'opengraph' | 'twitter' | 'meta';

/** One `<meta>` (or `<title>`, canonical link) of the page. */
export interface MetaEntry {
  /** Lower-cased name or property: `og:title`, `twitter:card`, `description`, `title`. */
  key: string;
  value: string;
  source: MetaSource;
  evidence: string;
}

/** Open Graph and its object namespaces (`product:`, `article:`, ...) all count as opengraph. */
const OG_PREFIX = /^(og|article|product|book|profile|music|video|business|place|restaurant|event):/;

/** Keys whose values are links, made absolute against the page. */
const URL_KEY = /(^canonical$|:url$|:image$|:image:url$|:video$|:audio$)/;

/** Meta tags, the title and the canonical URL; `<meta itemprop>` inside items belongs to microdata. */
export function metaEntries($: CheerioAPI, base: string): MetaEntry[] {
  const entries: MetaEntry[] = [];
  $('meta').each((_, el) => {
    const $el = $(el);
    if ($el.closest('[itemscope]').length > 0) return;
    const key = ($el.attr('property') ?? $el.attr('name') ?? $el.attr('itemprop') ?? '').trim().toLowerCase();
    const content = ($el.attr('content') ?? '').replace(/\s+/g, ' ').trim();
    const value = URL_KEY.test(key) ? (absoluteHttpUrl(content, base) ?? content) : content;
    if (!key || !value) return;
    const source: MetaSource = OG_PREFIX.test(key) ? 'opengraph' : key.startsWith('twitter:') ? 'twitter' : 'meta';
    entries.push({ key, value, source, evidence: snippet($.html(el)) });
  });
  const title = $('head title').first().text().replace(/\s+/g, ' ').trim();
  if (title) entries.push({ key: 'title', value: title, source: 'meta', evidence: snippet(`<title>${title}</title>`) });
  const canonical = $('link[rel="canonical" i]').first();
  const href = absoluteHttpUrl(canonical.attr('href')?.trim(), base);
  if (href) entries.push({ key: 'canonical', value: href, source: 'meta', evidence: snippet($.html(canonical)) });
  return entries;
}
