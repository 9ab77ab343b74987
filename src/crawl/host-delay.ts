import type { Db } from '../db/client';
import type { CrawlOptions } from './crawl-options';
import { recordHostDelay } from './frontier';
import type { RobotsCache } from './robots';

/**
 * The gap a crawl keeps between two requests to a host: the caller's `delay`, or the host's
 * robots.txt Crawl-delay when that is longer (unless robots.txt is ignored). A host with a gap is
 * recorded for the crawl, so the frontier hands it out one batch at a time.
 */
export async function hostDelayMs(
  deps: { db: Db; robots: RobotsCache },
  jobId: string,
  options: Pick<CrawlOptions, 'delayMs' | 'ignoreRobotsTxt'>,
  url: string,
): Promise<number> {
  const crawlDelayMs = options.ignoreRobotsTxt ? 0 : (await deps.robots.forUrl(url)).crawlDelayMs;
  const delayMs = Math.max(options.delayMs, crawlDelayMs);
  if (delayMs > 0) await recordHostDelay(deps.db, jobId, new URL(url).host, delayMs);
  return delayMs;
}
