import { absoluteHttpUrl } from './base-url';

/** Every distinct http(s) link target of the page's `<a href>` and `<area href>`, absolute, in document order. */
export function extractLinks(anchors: readonly Element[], base: string): string[] {
  const links = new Set<string>();
  for (const anchor of anchors) {
    const url = absoluteHttpUrl(anchor.getAttribute('href'), base);
    if (url) links.add(url);
  }
  return [...links];
}
