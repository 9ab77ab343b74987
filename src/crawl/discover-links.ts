import { urlKey } from '../url/normalize-url';
import type { CrawlOptions } from './crawl-options';
import type { CrawlScope } from './crawl-scope';
import type { Candidate } from './frontier';
import type { RobotsCache } from './robots';

/** The links of a page a crawl follows, keyed for de-duplication and checked against robots.txt. */
export async function crawlCandidates(
  links: readonly string[],
  scope: CrawlScope,
  options: Pick<CrawlOptions, 'ignoreQueryParameters' | 'ignoreRobotsTxt'>,
  robots: RobotsCache,
): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  for (const link of links) {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      continue;
    }
    url.hash = '';
    if (!scope.admits(url)) continue;
    const blocked = !options.ignoreRobotsTxt && !(await robots.forUrl(url.href)).isAllowed(url.href);
    candidates.push({ url: url.href, key: urlKey(url.href, { ignoreQueryParameters: options.ignoreQueryParameters }), host: url.host, blocked });
  }
  return candidates;
}
