import { Context } from '@temporalio/activity';
import { eq } from 'drizzle-orm';
import { mapSite, type MapDeps, type MapOptions } from '../src/crawl/map-site';
import { PRICES } from '../src/credits/pricing';
import type { Db } from '../src/db/client';
import { jobs } from '../src/db/schema';
import { storeJobResult } from '../src/jobs/job-result';
import { AppError } from '../src/errors';
import { patternBase, type ExpandUrlPatternInput, type ExpandUrlPatternOutput } from '../src/extract/url-pattern';
import { urlKey } from '../src/url/normalize-url';
import { withAppFailures } from './app-failure';

/** Pages a wildcard's discovery looks through before filtering by path. */
const PATTERN_DISCOVERY_LIMIT = 5_000;
const PATTERN_DISCOVERY_MS = 60_000;

export function createMapActivities(deps: MapDeps & { db: Db }) {
  return {
    /** Expands an extract job's `https://host/path/*` through map discovery: sitemaps and the base page's links. */
    async expandUrlPattern(input: ExpandUrlPatternInput): Promise<ExpandUrlPatternOutput> {
      return withAppFailures(async () => {
        const parsed = patternBase(input.pattern);
        if (!parsed) throw new AppError('BAD_REQUEST', `${input.pattern} is not a https://host/path/* wildcard`, undefined, { permanent: true });
        const links = await mapSite(
          deps,
          { url: parsed.base, ignoreSitemap: input.ignoreSitemap, sitemapOnly: false, includeSubdomains: input.includeSubdomains, limit: PATTERN_DISCOVERY_LIMIT },
          Date.now() + PATTERN_DISCOVERY_MS,
          Context.current().cancellationSignal,
        );
        const under = links.filter((link) => new URL(link).pathname.startsWith(parsed.pathPrefix));
        return {
          pages: under.slice(0, input.limit).map((url) => ({ url, urlKey: urlKey(url) })),
          truncated: under.length > input.limit,
        };
      });
    },

    /** Maps the job's site and stores its links with the job, charged once. */
    async mapSite(input: { jobId: string; deadline: number }): Promise<{ links: number }> {
      return withAppFailures(async () => {
        const [job] = await deps.db.select().from(jobs).where(eq(jobs.id, input.jobId));
        if (!job) throw new Error(`map job ${input.jobId} does not exist`);
        const links = await mapSite(deps, job.options as MapOptions, input.deadline, Context.current().cancellationSignal);
        await storeJobResult(deps.db, job, { links }, PRICES.map);
        return { links: links.length };
      });
    },
  };
}

export type MapActivities = ReturnType<typeof createMapActivities>;
