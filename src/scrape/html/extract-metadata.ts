import type { HtmlMetadata } from '../../db/page-metadata';
import { absoluteHttpUrl } from './base-url';
import type { PageScan } from './scan-page';

/** Reads the head before cleaning removes it. Empty values are left out, not sent as "". */
export function extractMetadata(document: Document, scan: PageScan, base: string): HtmlMetadata {
  // The first non-empty value of each name wins.
  const metas = new Map<string, string>();
  for (const element of scan.metas) {
    const content = element.getAttribute('content')?.trim();
    if (!content) continue;
    for (const attr of ['name', 'property', 'itemprop', 'http-equiv']) {
      const key = element.getAttribute(attr)?.trim().toLowerCase();
      if (key && !metas.has(key)) metas.set(key, content);
    }
  }
  const meta = (...keys: string[]): string | undefined => keys.map((k) => metas.get(k)).find(Boolean);
  const found: HtmlMetadata = {
    // As `document.title` reads it: ASCII whitespace stripped and collapsed (HTML, "document.title").
    title: scan.title?.textContent?.replace(/[\t\n\f\r ]+/g, ' ').trim() || meta('og:title', 'twitter:title'),
    description: meta('description', 'og:description', 'twitter:description'),
    language: document.documentElement?.getAttribute('lang')?.trim() || meta('language', 'content-language'),
    keywords: meta('keywords'),
    robots: meta('robots'),
    ogTitle: meta('og:title'),
    ogDescription: meta('og:description'),
    ogUrl: meta('og:url'),
    ogImage: absoluteHttpUrl(meta('og:image', 'og:image:url'), base) ?? undefined,
    ogSiteName: meta('og:site_name'),
    ogLocale: meta('og:locale'),
    publishedTime: meta('article:published_time', 'datepublished', 'date', 'dc.date', 'dcterms.created'),
    modifiedTime: meta('article:modified_time', 'og:updated_time', 'datemodified', 'dcterms.modified'),
    favicon: absoluteHttpUrl(scan.icons[0]?.getAttribute('href'), base) ?? undefined,
  };
  return Object.fromEntries(Object.entries(found).filter(([, v]) => v)) as HtmlMetadata;
}
