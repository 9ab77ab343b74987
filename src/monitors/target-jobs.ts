import { and, eq } from 'drizzle-orm';
import type { CrawlWorkflowInput } from '../crawl/crawl-run';
import type { Config } from '../config/env';
import { crawlRunInput } from '../crawl/crawl-run';
import { crawlPagePrice } from '../crawl/submit-crawl';
import { creditBalance } from '../credits/ledger';
import type { Db } from '../db/client';
import { jobs, monitorChecks, monitorJobs, monitors } from '../db/schema';
import { AppError } from '../errors';
import { createJob } from '../jobs/job-store';
import { workflowIdOf } from '../jobs/reconcile-jobs';
import type { SearchOptions, SearchWorkflowInput } from '../search/search-options';
import { plansOf } from './monitor-plan';
import { stableUuid } from './stable-uuid';

/** A workflow a target's check runs as a child: one of the service's existing job workflows. */
export type TargetChild =
  | { workflow: 'crawl'; workflowId: string; summary: string; input: CrawlWorkflowInput }
  | { workflow: 'search'; workflowId: string; summary: string; input: SearchWorkflowInput; timeoutMs: number };

/** The n-th job of a check's target: the same id on every attempt, so a retry makes no second job. */
export function targetJobId(checkId: string, targetId: string, n: number): string {
  return stableUuid(`monitor-job:${checkId}:${targetId}:${n}`);
}

/** A check's monitor and its target's plan; a monitor deleted meanwhile (or a target dropped by an update) is a permanent failure. */
export async function loadTarget(db: Db, checkId: string, targetId: string) {
  const [row] = await db
    .select({ monitorId: monitors.id, teamId: monitors.teamId, plans: monitors.plans, goal: monitors.goal })
    .from(monitorChecks)
    .innerJoin(monitors, eq(monitors.id, monitorChecks.monitorId))
    .where(eq(monitorChecks.id, checkId));
  const plan = row && plansOf(row).find((p) => p.id === targetId);
  if (!row || !plan) throw new AppError('NOT_FOUND', `Check ${checkId} or its target ${targetId} no longer exists (monitor deleted or changed)`, undefined, { permanent: true });
  return { ...row, plan };
}

/** Creates a job (once) and ties it to the check, in one transaction. */
async function ensureJob(db: Db, link: { monitorId: string; checkId: string; targetId: string }, job: Parameters<typeof createJob>[1]): Promise<void> {
  const [exists] = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.id, job.id));
  if (!exists) await createJob(db, job);
  await db.insert(monitorJobs).values({ jobId: job.id, ...link }).onConflictDoNothing();
}

/**
 * The jobs a target's check runs, created once (ids derived from the check), and the child
 * workflows that run them: the URLs of a scrape target as one batch scrape, a crawl target as a
 * crawl whose limit the team's credits cover, each query of a search target as a search.
 */
export async function prepareTargetJobs(db: Db, config: Config, checkId: string, targetId: string): Promise<TargetChild[]> {
  const { monitorId, teamId, plan } = await loadTarget(db, checkId, targetId);
  const link = { monitorId, checkId, targetId };
  const ttlHours = config.JOB_TTL_HOURS;
  if (plan.type === 'scrape' || plan.type === 'crawl') {
    const jobId = targetJobId(checkId, targetId, 0);
    const [existing] = await db.select({ options: jobs.options }).from(jobs).where(and(eq(jobs.id, jobId)));
    let options = plan.options;
    if (!existing && plan.type === 'crawl') {
      const affordable = Math.floor((await creditBalance(db, teamId)) / crawlPagePrice(options));
      options = { ...options, limit: Math.max(1, Math.min(options.limit, affordable)) };
    }
    await ensureJob(db, link, { id: jobId, teamId, kind: options.mode, url: options.url, options, pageLimit: options.limit, ttlHours });
    const summary = `Monitor ${plan.type === 'scrape' ? `scrape of ${plan.urls.length} URL(s)` : `crawl of ${plan.url}`}`;
    return [{ workflow: 'crawl', workflowId: workflowIdOf({ id: jobId, kind: options.mode }), summary, input: crawlRunInput(jobId, teamId, options, config) }];
  }
  return Promise.all(
    plan.queries.map(async (query, n) => {
      const jobId = targetJobId(checkId, targetId, n);
      const options: SearchOptions = { ...plan.options, query };
      await ensureJob(db, link, { id: jobId, teamId, kind: 'search', options, ttlHours });
      return {
        workflow: 'search' as const,
        workflowId: workflowIdOf({ id: jobId, kind: 'search' }),
        summary: `Monitor search: ${query.slice(0, 200)}`,
        input: { jobId, teamId, options, acceptedAt: Date.now(), browserQueue: config.taskQueues.browser },
        timeoutMs: options.timeout,
      };
    }),
  );
}
