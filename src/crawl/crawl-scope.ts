import type { CrawlOptions } from './crawl-options';

/** Files a crawl never fetches: their content is not text a page scrape can use. */
const ASSET_EXTENSION = /\.(?:png|jpe?g|gif|webp|avif|bmp|ico|svg|tiff?|mp[34]|m4[av]|mov|avi|mkv|webm|ogg|wav|flac|aac|woff2?|ttf|otf|eot|css|js|mjs|map|zip|tar|gz|tgz|bz2|xz|7z|rar|exe|dmg|msi|deb|rpm|apk|iso|bin|jar|wasm|psd|ai|eps)$/i;

function siteOf(hostname: string): string {
  return hostname.toLowerCase().replace(/^www\./, '');
}

/**
 * Which discovered URLs a crawl follows: same host by default (www. or not), subdomains with
 * `allowSubdomains`, anything with `allowExternalLinks`; under the start URL's path unless
 * `crawlEntireDomain`; include/exclude regexes on the path (or the whole URL); never assets.
 */
export class CrawlScope {
  private readonly start: URL;
  private readonly site: string;
  private readonly pathPrefix: string;
  private readonly include: RegExp[];
  private readonly exclude: RegExp[];

  constructor(private readonly options: Pick<CrawlOptions, 'url' | 'includePaths' | 'excludePaths' | 'regexOnFullURL' | 'allowExternalLinks' | 'allowSubdomains' | 'crawlEntireDomain'>) {
    this.start = new URL(options.url);
    this.site = siteOf(this.start.hostname);
    this.pathPrefix = this.start.pathname.replace(/\/+$/, '');
    this.include = options.includePaths.map((p) => new RegExp(p));
    this.exclude = options.excludePaths.map((p) => new RegExp(p));
  }

  /** Whether the crawl should follow a link to `url`. */
  admits(url: URL): boolean {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (ASSET_EXTENSION.test(url.pathname)) return false;
    const site = siteOf(url.hostname);
    const sameSite = site === this.site && (url.port === this.start.port || url.host === this.start.host);
    const subdomain = this.options.allowSubdomains && site.endsWith(`.${this.site}`);
    if (!sameSite && !subdomain && !this.options.allowExternalLinks) return false;
    if (sameSite && !this.options.crawlEntireDomain && this.pathPrefix) {
      const path = url.pathname.replace(/\/+$/, '');
      if (path !== this.pathPrefix && !path.startsWith(`${this.pathPrefix}/`)) return false;
    }
    const subject = this.options.regexOnFullURL ? url.href : url.pathname;
    if (this.include.length > 0 && !this.include.some((r) => r.test(subject))) return false;
    return !this.exclude.some((r) => r.test(subject));
  }
}
