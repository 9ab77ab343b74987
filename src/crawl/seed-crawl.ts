import type { Db } from '../db/client';
import { twoStepTransaction } from '../db/two-step-transaction';
import type { GuardedFetcher } from '../net/guarded-fetcher';
import { urlKey } from '../url/normalize-url';
import type { CrawlJob } from './crawl-job';
import { CrawlScope } from './crawl-scope';
import { crawlCandidates } from './discover-links';
import { enqueue, type Candidate } from './frontier';
import { hostDelayMs } from './host-delay';
import type { RobotsCache } from './robots';
import { sitemapUrls } from './sitemaps';
import { webhookEventStatement } from './webhooks/webhook-events';

export interface SeedDeps {
  db: Db;
  fetcher: GuardedFetcher;
  robots: RobotsCache;
  userAgent: string;
}

const SITEMAP_BUDGET_MS = 30_000;

function candidateOf(url: string, ignoreQueryParameters: boolean, blocked: boolean): Candidate {
  return { url, key: urlKey(url, { ignoreQueryParameters }), host: new URL(url).host, blocked };
}

/**
 * Puts a crawl's first pages in its frontier: the start URL at depth 0 and, unless
 * `ignoreSitemap`, the in-scope URLs of its sitemaps at depth 1 (a sitemap is one hop from the
 * site). A batch's URLs all go in at depth 0. Queues the `started` webhook event alongside.
 * Idempotent: seeding twice finds every URL already known.
 */
export async function seedCrawl(deps: SeedDeps, job: CrawlJob): Promise<void> {
  const { options } = job;
  let seeds: { depth: number; candidates: Candidate[] }[];
  if (options.mode === 'batch') {
    seeds = [{ depth: 0, candidates: (options.urls ?? []).map((u) => candidateOf(u, false, false)) }];
  } else {
    const start = new URL(options.url);
    const robots = options.ignoreRobotsTxt ? null : await deps.robots.forUrl(start.href);
    await hostDelayMs(deps, job.id, options, start.href);
    seeds = [{ depth: 0, candidates: [candidateOf(start.href, options.ignoreQueryParameters, robots ? !robots.isAllowed(start.href) : false)] }];
    if (!options.ignoreSitemap && options.maxDepth >= 1) {
      const listed = await sitemapUrls(deps.fetcher, start.origin, robots?.sitemaps ?? [], {
        limit: Math.min(50_000, options.limit * 4),
        deadline: Date.now() + SITEMAP_BUDGET_MS,
        userAgent: deps.userAgent,
      });
      seeds.push({ depth: 1, candidates: await crawlCandidates(listed, new CrawlScope(options), options, deps.robots) });
    }
  }
  const frontier = seeds.map((seed) => enqueue(job.id, seed.depth, seed.candidates, null));
  await twoStepTransaction(
    deps.db,
    frontier.flatMap((f) => f.reads),
    (found) =>
      [
        // Each enqueue made its two reads, in order.
        ...frontier.flatMap((f, i) => f.writes(found.slice(2 * i, 2 * i + 2))),
        webhookEventStatement(deps.db, options.webhook, { jobId: job.id, eventKey: 'started', type: 'crawl.started' }),
      ].filter((statement) => statement !== null),
  );
}
