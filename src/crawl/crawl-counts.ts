import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { pages } from '../db/schema';

export interface CrawlCounts {
  /** Every page that entered the frontier (not robots-blocked ones). */
  total: number;
  completed: number;
  failed: number;
  queued: number;
  creditsUsed: number;
}

export async function crawlCounts(db: Db, jobId: string): Promise<CrawlCounts> {
  const [row] = await db
    .select({
      total: sql<number>`count(*) filter (where ${pages.status} <> 'blocked')::int`,
      completed: sql<number>`count(*) filter (where ${pages.status} = 'scraped')::int`,
      failed: sql<number>`count(*) filter (where ${pages.status} = 'failed')::int`,
      queued: sql<number>`count(*) filter (where ${pages.status} in ('queued', 'scraping'))::int`,
      creditsUsed: sql<number>`coalesce(sum(${pages.credits}) filter (where ${pages.status} = 'scraped'), 0)::int`,
    })
    .from(pages)
    .where(and(eq(pages.jobId, jobId)));
  return row ?? { total: 0, completed: 0, failed: 0, queued: 0, creditsUsed: 0 };
}
