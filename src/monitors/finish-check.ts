import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ledger, monitorCheckPages, monitorChecks, monitorJobs, monitors } from '../db/schema';
import { PAGE_STATUSES, type CheckStatus, type CheckSummary } from './monitor-plan';

export interface FinishCheckInput {
  checkId: string;
  /** Targets whose job could not be run or compared, with why. */
  failedTargets: { targetId: string; error: string }[];
  /** Why the LLM could not judge the changes (the check still completes, unjudged). */
  judgeError?: string;
}

export interface FinishedCheck {
  status: CheckStatus;
  /** The monitor has a webhook or an email to tell. */
  notify: boolean;
}

/** Counts of a check's pages by status. */
export async function summaryOf(db: Db, checkId: string): Promise<CheckSummary> {
  const rows = await db.select({ status: monitorCheckPages.status, n: sql<number>`count(*)::int` }).from(monitorCheckPages).where(eq(monitorCheckPages.checkId, checkId)).groupBy(monitorCheckPages.status);
  const summary: CheckSummary = { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 };
  for (const { status, n } of rows) {
    if ((PAGE_STATUSES as readonly string[]).includes(status)) summary[status] = n;
    summary.totalPages += n;
  }
  return summary;
}

/** What a check's targets ran, in Firecrawl's targetResults shape. */
async function targetResultsOf(db: Db, checkId: string, failed: FinishCheckInput['failedTargets']): Promise<Record<string, unknown>[]> {
  const [check] = await db.select({ plans: monitors.plans }).from(monitorChecks).innerJoin(monitors, eq(monitors.id, monitorChecks.monitorId)).where(eq(monitorChecks.id, checkId));
  const linked = await db.select({ jobId: monitorJobs.jobId, targetId: monitorJobs.targetId }).from(monitorJobs).where(eq(monitorJobs.checkId, checkId));
  const credits = await creditsByJob(db, linked.map((l) => l.jobId));
  const results = await db
    .select({ targetId: monitorCheckPages.targetId, total: sql<number>`count(*)::int`, fresh: sql<number>`count(*) filter (where ${monitorCheckPages.status} = 'new')::int` })
    .from(monitorCheckPages)
    .where(eq(monitorCheckPages.checkId, checkId))
    .groupBy(monitorCheckPages.targetId);
  return (check?.plans ?? []).map((plan) => {
    const jobIds = linked.filter((l) => l.targetId === plan.id).map((l) => l.jobId);
    const error = failed.find((f) => f.targetId === plan.id)?.error;
    const base = { targetId: plan.id, type: plan.type, ...(error && { error }) };
    if (plan.type === 'scrape') return { ...base, expectedJobs: jobIds };
    if (plan.type === 'crawl') return { ...base, ...(jobIds[0] && { crawlId: jobIds[0] }) };
    const counted = results.find((r) => r.targetId === plan.id);
    return {
      ...base,
      searchCompleted: !error,
      resultCount: counted?.total ?? 0,
      matches: counted?.fresh ?? 0,
      searchCredits: jobIds.reduce((sum, id) => sum + (credits.get(id) ?? 0), 0),
      jobIds,
    };
  });
}

/** Credits charged per job (positive), from the ledger: what the jobs' workflows and the judge took. */
async function creditsByJob(db: Db, jobIds: string[]): Promise<Map<string, number>> {
  if (jobIds.length === 0) return new Map();
  const rows = await db.select({ jobId: ledger.jobId, spent: sql<number>`(-sum(${ledger.amount}))::int` }).from(ledger).where(inArray(ledger.jobId, jobIds)).groupBy(ledger.jobId);
  return new Map(rows.map((r) => [r.jobId!, r.spent]));
}

/**
 * Ends a check: its summary, its credits (the ledger rows of its jobs, each charged once under
 * its own idempotency key, so the sum is exact however often anything was retried) and its
 * status: `failed` when every target failed, `partial` when some did, else `completed`. Only a
 * running check changes, so a retry keeps what the first attempt wrote.
 */
export async function finishCheck(db: Db, input: FinishCheckInput): Promise<FinishedCheck> {
  const [check] = await db
    .select({ status: monitorChecks.status, plans: monitors.plans, webhook: monitors.webhook, notification: monitors.notification })
    .from(monitorChecks)
    .innerJoin(monitors, eq(monitors.id, monitorChecks.monitorId))
    .where(eq(monitorChecks.id, input.checkId));
  if (!check) return { status: 'failed', notify: false };
  const notify = Boolean(check.webhook || check.notification?.email?.enabled);
  if (check.status !== 'running') return { status: check.status, notify };
  const linked = await db.select({ jobId: monitorJobs.jobId }).from(monitorJobs).where(eq(monitorJobs.checkId, input.checkId));
  const spent = [...(await creditsByJob(db, linked.map((l) => l.jobId))).values()].reduce((a, b) => a + b, 0);
  const failed = new Set(input.failedTargets.map((f) => f.targetId)).size;
  const status: CheckStatus = failed === 0 ? 'completed' : failed >= check.plans.length ? 'failed' : 'partial';
  const now = new Date();
  await db
    .update(monitorChecks)
    .set({
      status,
      summary: await summaryOf(db, input.checkId),
      targetResults: await targetResultsOf(db, input.checkId, input.failedTargets),
      actualCredits: spent,
      finishedAt: now,
      updatedAt: now,
      ...((failed > 0 || input.judgeError) && {
        error: [...input.failedTargets.map((f) => `${f.targetId}: ${f.error}`), ...(input.judgeError ? [`judge: ${input.judgeError}`] : [])].join('; ').slice(0, 2_000),
      }),
    })
    .where(and(eq(monitorChecks.id, input.checkId), eq(monitorChecks.status, 'running')));
  return { status, notify };
}
