/** The URL relative references resolve against: the page's `<base href>` when valid, else the page URL. */
export function baseUrlOf(baseHref: string | null | undefined, pageUrl: string): string {
  if (!baseHref) return pageUrl;
  try {
    return new URL(baseHref, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

/**
 * Most characters resolving a reference may add to it. A page sets its own base (`<base href>`,
 * or the URL it redirects to), so without a bound a 450 KB page of 27,000 relative links under a
 * 20,000-character base resolved to 540 MB of URLs and ran its processing thread out of heap.
 * 2,048 is more than any real page's base.
 */
const MAX_RESOLVED_GROWTH = 2_048;

/**
 * Resolves a reference to an absolute http(s) URL, or null for anything else (javascript:,
 * mailto:, junk) and for a URL that resolving made longer by more than MAX_RESOLVED_GROWTH.
 */
export function absoluteHttpUrl(ref: string | null | undefined, base: string): string | null {
  if (!ref) return null;
  try {
    const url = new URL(ref.trim(), base);
    if (url.href.length > ref.length + MAX_RESOLVED_GROWTH) return null;
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
