import type { ScrapeOptions } from './scrape-options';

/**
 * Headers for a page request: our defaults, then the caller's, which win (compared without
 * regard to case, as HTTP does).
 */
export function requestHeaders(userAgent: string, options: Pick<ScrapeOptions, 'headers' | 'location'>): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': userAgent,
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'accept-language': options.location?.languages?.join(', ') ?? 'en-US,en;q=0.9',
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}
