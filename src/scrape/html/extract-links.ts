import { absoluteHttpUrl } from './base-url';

/** A page's links, as many as a caller keeps, and how many there are. */
export interface PageLinks {
  /** Distinct http(s) link targets, absolute, in document order. */
  links: string[];
  /** Distinct links on the page; those past the cap are told apart by their href as written. */
  total: number;
}

/** A scheme other than http(s) (`mailto:`, `javascript:`, `tel:`); a relative href has none. */
const OTHER_SCHEME = /^\s*(?!https?:)[a-z][a-z\d+.-]*:/i;

/**
 * The distinct http(s) link targets of the page's `<a href>` and `<area href>`, absolute, in
 * document order, up to `max` (see linksOf).
 */
export function extractLinks(anchors: readonly Element[], base: string, max = Infinity): PageLinks {
  return linksOf(
    anchors.map((a) => a.getAttribute('href') ?? ''),
    base,
    max,
  );
}

/**
 * The distinct http(s) targets of links' hrefs as written, absolute, in document order, up to
 * `max`. Past it links are only counted, by their href as written: a page of 100,000 links
 * resolves `max` URLs, not 100,000. An href seen before is not resolved again (menus repeat
 * theirs).
 */
export function linksOf(hrefs: Iterable<string>, base: string, max = Infinity): PageLinks {
  const links = new Set<string>();
  const seen = new Set<string>();
  let beyond = 0;
  for (const href of hrefs) {
    if (seen.has(href)) continue;
    seen.add(href);
    if (links.size < max) {
      const url = absoluteHttpUrl(href, base);
      if (url) links.add(url);
    } else if (href && !OTHER_SCHEME.test(href)) {
      beyond++;
    }
  }
  return { links: [...links], total: links.size + beyond };
}
