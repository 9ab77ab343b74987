import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { ledger, pages } from '../../src/db/schema';

/** What Postgres holds for a finished crawl, against what it should hold. */
export interface CrawlAudit {
  /** Pages stored as scraped, one row per URL. */
  stored: number;
  /** Pages failed for good. */
  failed: number;
  /** Of the expected pages, those neither stored nor failed. */
  lost: number;
  /** Charges beyond one per stored page. */
  chargedTwice: number;
  /** Stored pages that carry no charge. */
  uncharged: number;
}

/** Counts, from the rows themselves, how a crawl that should have reached `expected` pages ended. */
export async function auditCrawl(db: Db, jobId: string, expected: number): Promise<CrawlAudit> {
  const [counts] = await db
    .select({
      stored: sql<number>`count(*) filter (where ${pages.status} = 'scraped')::int`,
      failed: sql<number>`count(*) filter (where ${pages.status} = 'failed')::int`,
    })
    .from(pages)
    .where(eq(pages.jobId, jobId));
  const [charges] = await db
    .select({
      rows: sql<number>`count(*)::int`,
      forStored: sql<number>`count(*) filter (where exists (select 1 from ${pages} p where p.job_id = ${jobId}::uuid and p.status = 'scraped' and ${ledger.idempotencyKey} = 'crawl:' || p.job_id || ':' || p.url_key))::int`,
    })
    .from(ledger)
    .where(and(eq(ledger.jobId, jobId), sql`${ledger.amount} < 0`));
  const stored = counts?.stored ?? 0;
  const failed = counts?.failed ?? 0;
  return {
    stored,
    failed,
    lost: Math.max(0, expected - stored - failed),
    chargedTwice: Math.max(0, (charges?.rows ?? 0) - stored),
    uncharged: stored - (charges?.forStored ?? 0),
  };
}
