import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs, pages } from '../db/schema';
import type { CrawlJob } from './crawl-job';
import { queueWebhookEvent } from './webhooks/webhook-events';

export type CrawlEnd = 'completed' | 'failed' | 'cancelled';

/**
 * Records how a crawl ended, with its completed/failed webhook event, in one transaction.
 * "Completed" is refused while pages are still queued or in flight: a retry of failed pages
 * that raced the end of the run put them back, and the run must go on.
 */
export async function finishCrawl(db: Db, job: CrawlJob, end: CrawlEnd, error?: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ round: jobs.round }).from(jobs).where(eq(jobs.id, job.id)).for('update');
    if (end === 'completed') {
      const [open] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(pages)
        .where(and(eq(pages.jobId, job.id), inArray(pages.status, ['queued', 'scraping'])));
      if ((open?.n ?? 0) > 0) return false;
    }
    // A crawl cancelled through the API stays cancelled whatever its run reports.
    await tx
      .update(jobs)
      .set({ status: end, finishedAt: new Date(), ...(error && { errorCode: 'CRAWL_FAILED', error }) })
      .where(end === 'cancelled' ? eq(jobs.id, job.id) : and(eq(jobs.id, job.id), eq(jobs.status, 'scraping')));
    if (end !== 'cancelled') {
      await queueWebhookEvent(tx, job.options.webhook, {
        jobId: job.id,
        eventKey: `${end}:${row?.round ?? 0}`,
        type: end === 'completed' ? 'crawl.completed' : 'crawl.failed',
        ...(error && { error }),
      });
    }
    return true;
  });
}
