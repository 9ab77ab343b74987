import { urlKey } from '../url/normalize-url';
import type { CrawlOptions } from './crawl-options';
import type { CrawlScope } from './crawl-scope';
import type { Candidate } from './frontier';
import type { RobotsCache, RobotsRules } from './robots';

/** A discovered link parsed (fragment dropped) and keyed, or null when it is no URL. */
export type KeyedLink = { url: URL; key: string } | null;

/** Parses and keys a link as a crawl or a map de-duplicates it. */
export function keyedLink(link: string, ignoreQueryParameters: boolean): KeyedLink {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  url.hash = '';
  return { url, key: urlKey(url.href, { ignoreQueryParameters }) };
}

/**
 * Links parsed and keyed once per worker, however many pages list them: a site's menus and
 * footer repeat on every page, and parsing, keying and checking a bench page's 90 links took
 * 0.4-1 ms of the worker's main thread (four URL parses and setter rounds per link). Bounded, least
 * recently used first out.
 */
class KeyedLinks {
  private readonly memo = new Map<string, KeyedLink>();

  constructor(
    private readonly ignoreQueryParameters: boolean,
    private readonly max: number,
  ) {}

  get(link: string): KeyedLink {
    const known = this.memo.get(link);
    if (known !== undefined) {
      // Moved to the newest end, so links every page lists stay while one-off ones age out.
      this.memo.delete(link);
      this.memo.set(link, known);
      return known;
    }
    const keyed = keyedLink(link, this.ignoreQueryParameters);
    if (this.memo.size >= this.max) this.memo.delete(this.memo.keys().next().value!);
    this.memo.set(link, keyed);
    return keyed;
  }
}

/** Links kept per key option: a few thousand, enough for the menus of the sites crawled at once. */
const MEMO_SIZE = 4_096;
const keyedLinks = { keepQuery: new KeyedLinks(false, MEMO_SIZE), dropQuery: new KeyedLinks(true, MEMO_SIZE) };

/** The links of a page a crawl follows, keyed for de-duplication and checked against robots.txt. */
export async function crawlCandidates(
  links: readonly string[],
  scope: CrawlScope,
  options: Pick<CrawlOptions, 'ignoreQueryParameters' | 'ignoreRobotsTxt'>,
  robots: RobotsCache,
): Promise<Candidate[]> {
  const keyed = options.ignoreQueryParameters ? keyedLinks.dropQuery : keyedLinks.keepQuery;
  const rulesByOrigin = new Map<string, RobotsRules>();
  const candidates: Candidate[] = [];
  // A link a page lists twice (a menu and a sidebar) is one candidate, as the frontier would keep it.
  for (const link of new Set(links)) {
    const found = keyed.get(link);
    if (!found || !scope.admits(found.url)) continue;
    const { url, key } = found;
    let blocked = false;
    if (!options.ignoreRobotsTxt) {
      let rules = rulesByOrigin.get(url.origin);
      if (!rules) rulesByOrigin.set(url.origin, (rules = await robots.forUrl(url.href)));
      blocked = !rules.isAllowed(url.href);
    }
    candidates.push({ url: url.href, key, host: url.host, blocked });
  }
  return candidates;
}
