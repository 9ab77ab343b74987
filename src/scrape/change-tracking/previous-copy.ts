import { and, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { jobs, pages } from '../../db/schema';

/**
 * The variant a page is stored under when its scrape said `storeInCache: false`: a `maxAge`
 * lookup (which matches the variant exactly) never finds it, while change tracking still does.
 */
export function uncachedVariant(variant: string): string {
  return `${variant}:uncached`;
}

/** Where a job's options keep the change-tracking tag (see jobOptionsWithV2). */
const TAG_PATH = '{v2,changeTracking,tag}';

export interface PreviousCopyQuery {
  teamId: string;
  urlKey: string;
  /** The content variant of the current copy (how it was cleaned); only a like-for-like copy compares. */
  variant: string;
  /** The current copy, which is not its own previous one. */
  pageId: string;
  scrapedAt: Date;
  /** Only copies scraped with the same tag (absent: only untagged copies). */
  tag?: string;
}

/** The newest earlier stored copy of the URL this team has, with the same variant and tag. */
export async function findPreviousCopy(db: Db, q: PreviousCopyQuery) {
  const [row] = await db
    .select({ markdown: pages.markdown, statusCode: pages.statusCode, json: pages.json, scrapedAt: pages.scrapedAt })
    .from(pages)
    .innerJoin(jobs, eq(jobs.id, pages.jobId))
    .where(
      and(
        eq(pages.urlKey, q.urlKey),
        inArray(pages.variant, [q.variant, uncachedVariant(q.variant)]),
        eq(pages.status, 'scraped'),
        lt(pages.scrapedAt, q.scrapedAt),
        ne(pages.id, q.pageId),
        eq(jobs.teamId, q.teamId),
        sql`coalesce(${jobs.options} #>> ${sql.raw(`'${TAG_PATH}'`)}, '') = ${q.tag ?? ''}`,
      ),
    )
    .orderBy(desc(pages.scrapedAt))
    .limit(1);
  return row && { markdown: row.markdown ?? '', statusCode: row.statusCode ?? 0, json: row.json, scrapedAt: row.scrapedAt! };
}
