import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs, teams, type JobStatus } from '../db/schema';
import type { CrawlOptions } from './crawl-options';

export interface CrawlJob {
  id: string;
  teamId: string;
  options: CrawlOptions;
}

/** A crawl or batch job with its options; throws when it does not exist. */
export async function loadCrawlJob(db: Db, jobId: string): Promise<CrawlJob & { status: JobStatus; round: number; webhookSecret: string }> {
  const [row] = await db
    .select({ id: jobs.id, teamId: jobs.teamId, options: jobs.options, status: jobs.status, round: jobs.round, webhookSecret: teams.webhookSecret })
    .from(jobs)
    .innerJoin(teams, eq(teams.id, jobs.teamId))
    .where(eq(jobs.id, jobId));
  if (!row) throw new Error(`crawl job ${jobId} does not exist`);
  return { ...row, options: row.options as CrawlOptions };
}

/** Crawl options never change after submission, so a worker reads each job's once. */
export class CrawlJobCache {
  private readonly jobs = new Map<string, Promise<CrawlJob>>();

  constructor(private readonly db: Db) {}

  get(jobId: string): Promise<CrawlJob> {
    let job = this.jobs.get(jobId);
    if (!job) {
      if (this.jobs.size >= 1_000) this.jobs.delete(this.jobs.keys().next().value!);
      job = loadCrawlJob(this.db, jobId);
      job.catch(() => this.jobs.delete(jobId));
      this.jobs.set(jobId, job);
    }
    return job;
  }
}
