/** The URL relative references resolve against: the page's `<base href>` when valid, else the page URL. */
export function baseUrlOf(baseHref: string | null | undefined, pageUrl: string): string {
  if (!baseHref) return pageUrl;
  try {
    return new URL(baseHref, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

/** Resolves a reference to an absolute http(s) URL, or null for anything else (javascript:, mailto:, junk). */
export function absoluteHttpUrl(ref: string | null | undefined, base: string): string | null {
  if (!ref) return null;
  try {
    const url = new URL(ref.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
