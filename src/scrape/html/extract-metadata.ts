import type { CheerioAPI } from 'cheerio';
import { absoluteHttpUrl } from './base-url';

/** The page-describing part of `metadata` (API.md, "Document"). */
export interface HtmlMetadata {
  title?: string;
  description?: string;
  language?: string;
  keywords?: string;
  robots?: string;
  ogTitle?: string;
  ogDescription?: string;
  ogUrl?: string;
  ogImage?: string;
  ogSiteName?: string;
  ogLocale?: string;
  publishedTime?: string;
  modifiedTime?: string;
  favicon?: string;
}

/** Reads the head before cleaning removes it. Empty values are left out, not sent as "". */
export function extractMetadata($: CheerioAPI, base: string): HtmlMetadata {
  // One pass over the <meta> tags; the first non-empty value of each name wins.
  const metas = new Map<string, string>();
  $('meta[content]').each((_, el) => {
    const content = el.attribs.content?.trim();
    if (!content) return;
    for (const attr of ['name', 'property', 'itemprop', 'http-equiv']) {
      const key = el.attribs[attr]?.trim().toLowerCase();
      if (key && !metas.has(key)) metas.set(key, content);
    }
  });
  const meta = (...keys: string[]): string | undefined => keys.map((k) => metas.get(k)).find(Boolean);
  const iconHref = $('link[rel~="icon" i], link[rel="shortcut icon" i], link[rel="apple-touch-icon" i]').first().attr('href');
  const found: HtmlMetadata = {
    title: $('head title').first().text().trim() || $('title').first().text().trim() || meta('og:title', 'twitter:title'),
    description: meta('description', 'og:description', 'twitter:description'),
    language: $('html').attr('lang')?.trim() || meta('language', 'content-language'),
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
    favicon: absoluteHttpUrl(iconHref, base) ?? undefined,
  };
  return Object.fromEntries(Object.entries(found).filter(([, v]) => v)) as HtmlMetadata;
}
