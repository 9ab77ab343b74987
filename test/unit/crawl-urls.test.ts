import { describe, expect, it } from 'vitest';
import { crawlCandidates } from '../../src/crawl/discover-links';
import { CrawlScope } from '../../src/crawl/crawl-scope';
import { RobotsCache } from '../../src/crawl/robots';
import type { GuardedFetcher } from '../../src/net/guarded-fetcher';
import { urlKey } from '../../src/url/normalize-url';

describe('urlKey: one key per page, however a link spells it', () => {
  it('folds scheme and host case, default ports, fragments, duplicate and trailing slashes', () => {
    const key = 'https://docs.example.com/guide/install';
    for (const spelling of [
      'HTTPS://Docs.Example.COM/guide/install',
      'https://docs.example.com:443/guide/install',
      'https://docs.example.com/guide/install#step-2',
      'https://docs.example.com//guide///install',
      'https://docs.example.com/guide/install/',
    ]) {
      expect(urlKey(spelling), spelling).toBe(key);
    }
    expect(urlKey('http://docs.example.com:80/')).toBe('http://docs.example.com/');
    expect(urlKey('http://docs.example.com:8080/a')).toBe('http://docs.example.com:8080/a');
  });

  it('keeps scheme, path case and query values apart', () => {
    expect(urlKey('http://example.com/a')).not.toBe(urlKey('https://example.com/a'));
    expect(urlKey('https://example.com/A')).not.toBe(urlKey('https://example.com/a'));
    expect(urlKey('https://example.com/a?page=1')).not.toBe(urlKey('https://example.com/a?page=2'));
  });

  it('sorts query parameters, or drops the query with ignoreQueryParameters', () => {
    expect(urlKey('https://example.com/list?b=2&a=1')).toBe(urlKey('https://example.com/list?a=1&b=2'));
    const ignoring = { ignoreQueryParameters: true };
    expect(urlKey('https://example.com/list?page=2&sort=asc', ignoring)).toBe('https://example.com/list');
    expect(urlKey('https://example.com/list?page=3', ignoring)).toBe(urlKey('https://example.com/list', ignoring));
  });
});

describe('CrawlScope', () => {
  const defaults = { includePaths: [] as string[], excludePaths: [] as string[], regexOnFullURL: false, allowExternalLinks: false, allowSubdomains: false, crawlEntireDomain: false };
  const scope = (url: string, options: Partial<typeof defaults> = {}) => new CrawlScope({ ...defaults, ...options, url });
  const admits = (s: CrawlScope, url: string) => s.admits(new URL(url));

  it('stays on the start host, with or without www., on its port', () => {
    const s = scope('https://example.com/');
    expect(admits(s, 'https://example.com/a')).toBe(true);
    expect(admits(s, 'https://www.example.com/a')).toBe(true);
    expect(admits(s, 'https://docs.example.com/a')).toBe(false);
    expect(admits(s, 'https://example.org/a')).toBe(false);
    expect(admits(s, 'https://example.com:8443/a')).toBe(false);
    expect(admits(s, 'mailto:keeper@example.com')).toBe(false);
  });

  it('follows subdomains with allowSubdomains and any site with allowExternalLinks', () => {
    const subdomains = scope('https://example.com/', { allowSubdomains: true });
    expect(admits(subdomains, 'https://docs.example.com/a')).toBe(true);
    expect(admits(subdomains, 'https://a.b.example.com/')).toBe(true);
    expect(admits(subdomains, 'https://notexample.com/')).toBe(false);
    expect(admits(subdomains, 'https://example.org/')).toBe(false);
    expect(admits(scope('https://example.com/', { allowExternalLinks: true }), 'https://example.org/')).toBe(true);
  });

  it("stays under the start URL's path unless crawlEntireDomain", () => {
    const s = scope('https://example.com/docs/');
    expect(admits(s, 'https://example.com/docs')).toBe(true);
    expect(admits(s, 'https://example.com/docs/v2/intro')).toBe(true);
    expect(admits(s, 'https://example.com/docsearch')).toBe(false);
    expect(admits(s, 'https://example.com/blog/')).toBe(false);
    expect(admits(scope('https://example.com/docs/', { crawlEntireDomain: true }), 'https://example.com/blog/')).toBe(true);
  });

  it('matches includePaths and excludePaths on the path, or the full URL with regexOnFullURL', () => {
    const s = scope('https://example.com/', { includePaths: ['^/docs'], excludePaths: ['/internal'] });
    expect(admits(s, 'https://example.com/docs/a?x=1')).toBe(true);
    expect(admits(s, 'https://example.com/blog/a')).toBe(false);
    expect(admits(s, 'https://example.com/docs/internal/a')).toBe(false);
    const full = scope('https://example.com/', { includePaths: ['^https://example\\.com/docs'], regexOnFullURL: true });
    expect(admits(full, 'https://example.com/docs/a')).toBe(true);
    expect(admits(full, 'https://www.example.com/docs/a')).toBe(false);
  });

  it('never fetches non-HTML assets', () => {
    const s = scope('https://example.com/');
    for (const asset of ['/logo.PNG', '/app.js', '/site.css', '/font.woff2', '/video.mp4', '/archive.tar.gz', '/setup.exe']) {
      expect(admits(s, `https://example.com${asset}`), asset).toBe(false);
    }
    expect(admits(s, 'https://example.com/report.pdf')).toBe(true);
    expect(admits(s, 'https://example.com/page.html')).toBe(true);
  });
});

describe('crawlCandidates', () => {
  const options = { url: 'https://example.com/', includePaths: [] as string[], excludePaths: [] as string[], regexOnFullURL: false, allowExternalLinks: false, allowSubdomains: false, crawlEntireDomain: false };
  const robotsTxt = { status: 200, body: Buffer.from('User-agent: *\nDisallow: /private/\n') };
  const robots = new RobotsCache({ get: async () => robotsTxt } as unknown as GuardedFetcher, 'test');
  const candidates = (links: string[], ignoreQueryParameters: boolean) =>
    crawlCandidates(links, new CrawlScope(options), { ignoreQueryParameters, ignoreRobotsTxt: false }, robots);

  it('lists each followed link once, keyed, with robots.txt refusals marked, whichever key option a crawl has', async () => {
    const links = ['https://example.com/a?b=2&a=1#top', 'https://example.com/private/x', 'https://example.org/off-site', 'not a url', 'https://example.com/a?b=2&a=1#top'];
    // Twice each: the second time from memory, which must answer as parsing did.
    for (let round = 0; round < 2; round++) {
      expect(await candidates(links, false)).toEqual([
        { url: 'https://example.com/a?b=2&a=1', key: 'https://example.com/a?a=1&b=2', host: 'example.com', blocked: false },
        { url: 'https://example.com/private/x', key: 'https://example.com/private/x', host: 'example.com', blocked: true },
      ]);
      expect((await candidates(links, true)).map((c) => c.key)).toEqual(['https://example.com/a', 'https://example.com/private/x']);
    }
  });
});
