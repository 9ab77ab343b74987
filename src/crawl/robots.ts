import robotsParser from 'robots-parser';
import type { GuardedFetcher } from '../net/guarded-fetcher';

/** The product token our rules are looked up by (robots.txt `User-agent:` lines). */
export const ROBOTS_AGENT = 'web-context-service';
const TTL_MS = 10 * 60_000;
const MAX_ORIGINS = 1_000;
const FETCH_TIMEOUT_MS = 10_000;

export interface RobotsRules {
  isAllowed(url: string): boolean;
  /** Crawl-delay for our agent, in ms (0 when none). */
  crawlDelayMs: number;
  /** `Sitemap:` lines. */
  sitemaps: string[];
}

const ALLOW_ALL: RobotsRules = { isAllowed: () => true, crawlDelayMs: 0, sitemaps: [] };
const DISALLOW_ALL: RobotsRules = { isAllowed: () => false, crawlDelayMs: 0, sitemaps: [] };

/**
 * robots.txt per origin, fetched once and kept for ten minutes. Per RFC 9309: a 4xx means no
 * rules; a 5xx or an unreachable file means nothing may be crawled for now.
 */
export class RobotsCache {
  private readonly entries = new Map<string, { rules: Promise<RobotsRules>; at: number }>();

  constructor(
    private readonly fetcher: GuardedFetcher,
    private readonly userAgent: string,
  ) {}

  forUrl(url: string): Promise<RobotsRules> {
    const origin = new URL(url).origin;
    const cached = this.entries.get(origin);
    if (cached && Date.now() - cached.at < TTL_MS) return cached.rules;
    if (this.entries.size >= MAX_ORIGINS) this.entries.delete(this.entries.keys().next().value!);
    const rules = this.load(origin);
    this.entries.set(origin, { rules, at: Date.now() });
    return rules;
  }

  private async load(origin: string): Promise<RobotsRules> {
    const robotsUrl = `${origin}/robots.txt`;
    let response;
    try {
      response = await this.fetcher.get(robotsUrl, {
        headers: { 'user-agent': this.userAgent, accept: 'text/plain,*/*;q=0.5' },
        deadline: Date.now() + FETCH_TIMEOUT_MS,
        maxBytes: 512 * 1024,
      });
    } catch {
      return DISALLOW_ALL;
    }
    if (response.status >= 500) return DISALLOW_ALL;
    if (response.status >= 400) return ALLOW_ALL;
    const robots = robotsParser(robotsUrl, response.body.toString('utf8'));
    return {
      isAllowed: (url) => robots.isAllowed(url, ROBOTS_AGENT) !== false,
      crawlDelayMs: Math.round((robots.getCrawlDelay(ROBOTS_AGENT) ?? 0) * 1000),
      sitemaps: robots.getSitemaps(),
    };
  }
}
