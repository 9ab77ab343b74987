import type { GuardedFetcher } from '../net/guarded-fetcher';
import type { HttpScraper } from '../scrape/http-scraper';
import { scrapeOptionsSchema } from '../scrape/scrape-options';
import { keyedLink } from './discover-links';
import type { MapRequest } from './crawl-options';
import { CrawlScope } from './crawl-scope';
import type { RobotsCache } from './robots';
import { sitemapUrls } from './sitemaps';

export interface MapDeps {
  fetcher: GuardedFetcher;
  http: HttpScraper;
  robots: RobotsCache;
  userAgent: string;
}

export type MapOptions = Omit<MapRequest, 'origin' | 'integration'>;

const LINKS_ONLY = scrapeOptionsSchema.parse({ formats: ['links'], onlyMainContent: false, engine: 'http' });

/** Lower-case words of a search, for matching against URLs. */
function terms(search: string): string[] {
  return search
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 1);
}

/**
 * A site's URLs without scraping it: its sitemaps and the links of its start page, in scope
 * (the site, and its subdomains with `includeSubdomains`), de-duplicated, start URL first.
 * With `search`, only URLs containing a search term, most terms first.
 */
export async function mapSite(deps: MapDeps, o: MapOptions, deadline: number, cancel?: AbortSignal): Promise<string[]> {
  const start = new URL(o.url);
  const scope = new CrawlScope({
    url: start.origin,
    includePaths: [],
    excludePaths: [],
    regexOnFullURL: false,
    allowExternalLinks: false,
    allowSubdomains: o.includeSubdomains,
    crawlEntireDomain: true,
  });
  const found: string[] = [start.href];
  if (!o.ignoreSitemap) {
    const robots = await deps.robots.forUrl(start.href);
    // Read well past `limit`: filtering by scope and search comes after.
    const cap = Math.min(50_000, Math.max(o.limit * 2, 5_000));
    found.push(...(await sitemapUrls(deps.fetcher, start.origin, robots.sitemaps, { limit: cap, deadline, userAgent: deps.userAgent })));
  }
  if (!o.sitemapOnly) {
    const result = await deps.http.scrape(start.href, { ...LINKS_ONLY, timeout: Math.max(1_000, deadline - Date.now()) }, deadline, cancel);
    if (result.kind === 'page') found.push(...result.page.content.links);
  }
  const seen = new Set<string>();
  let links = found.filter((link) => {
    const keyed = keyedLink(link, false);
    if (!keyed || seen.has(keyed.key) || !scope.admits(keyed.url)) return false;
    seen.add(keyed.key);
    return true;
  });
  if (o.search) {
    const wanted = terms(o.search);
    const score = (link: string) => wanted.filter((t) => link.toLowerCase().includes(t)).length;
    links = links.filter((l) => score(l) > 0).sort((a, b) => score(b) - score(a));
  }
  return links.slice(0, o.limit);
}
