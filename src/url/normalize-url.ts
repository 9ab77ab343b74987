export interface NormalizeOptions {
  /** Drop the query string entirely (crawl's `ignoreQueryParameters`). */
  ignoreQueryParameters?: boolean;
}

/**
 * The identity of a URL for de-duplication: lower-case scheme and host and no default port (the
 * WHATWG parser does those), no fragment, no repeated or trailing slashes, sorted query
 * parameters. Used as a key only; the URL actually fetched is the one given.
 */
export function urlKey(raw: string, options: NormalizeOptions = {}): string {
  const url = new URL(raw);
  url.hash = '';
  url.pathname = url.pathname.replace(/\/{2,}/g, '/');
  if (url.pathname.length > 1) url.pathname = url.pathname.replace(/\/$/, '');
  if (options.ignoreQueryParameters) url.search = '';
  else url.searchParams.sort();
  return url.href;
}
