import * as cheerio from 'cheerio';
import type { Element } from 'domhandler';
import { absoluteHttpUrl, baseUrlOf } from '../../scrape/html/base-url';
import { LAZY_SRC, LAZY_SRCSET } from '../../scrape/html/lazy-images';

/** Most image URLs a document lists; a page with more says so in a warning. */
export const MAX_IMAGES_PER_PAGE = 1_000;

/** One entry of the v2 `attributes` format. */
export interface AttributeValues {
  selector: string;
  attribute: string;
  values: string[];
}

const IMAGE_SELECTOR = [
  ...['src', 'srcset', ...LAZY_SRC, ...LAZY_SRCSET].map((name) => `img[${name}]`),
  ...['srcset', ...LAZY_SRCSET].map((name) => `picture source[${name}]`),
].join(', ');

/**
 * The page's distinct http(s) image URLs (`<img src>`, `srcset`, `<source srcset>`, and the real
 * addresses lazy-loaded images keep in data attributes), absolute, in document order.
 */
export function imagesOf(rawHtml: string, pageUrl: string): { images: string[]; total: number } {
  const $ = cheerio.load(rawHtml);
  const base = baseUrlOf($('base[href]').attr('href'), pageUrl);
  const seen = new Set<string>();
  $(IMAGE_SELECTOR).each((_, node) => {
    const el = node as Element;
    const sets = [el.attribs.srcset, ...LAZY_SRCSET.map((name) => el.attribs[name])];
    const refs = [el.attribs.src, ...LAZY_SRC.map((name) => el.attribs[name]), ...sets.flatMap((set) => (set ?? '').split(',').map((c) => c.trim().split(/\s+/)[0]))];
    for (const ref of refs) {
      const url = ref ? absoluteHttpUrl(ref, base) : null;
      if (url) seen.add(url);
    }
  });
  const all = [...seen];
  return { images: all.slice(0, MAX_IMAGES_PER_PAGE), total: all.length };
}

/** For each selector, the attribute's value on every element it matches (elements without it are skipped). */
export function attributesOf(rawHtml: string, selectors: readonly { selector: string; attribute: string }[]): AttributeValues[] {
  const $ = cheerio.load(rawHtml);
  return selectors.map(({ selector, attribute }) => {
    const values = $(selector)
      .toArray()
      .map((el) => $(el).attr(attribute))
      .filter((v): v is string => v !== undefined);
    return { selector, attribute, values };
  });
}

/** Whether cheerio can run this CSS selector (checked when the request is validated). */
export function isValidSelector(selector: string): boolean {
  try {
    cheerio.load('')(selector);
    return true;
  } catch {
    return false;
  }
}
