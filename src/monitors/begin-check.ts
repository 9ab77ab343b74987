import { and, eq, ne } from 'drizzle-orm';
import { creditBalance } from '../credits/ledger';
import type { Db } from '../db/client';
import { monitorChecks, monitors } from '../db/schema';
import { estimateCheckCredits, MIN_CHECK_CREDITS } from './estimate';
import { plansOf, type CheckStatus, type CheckTrigger, type TargetPlan } from './monitor-plan';
import { snapshotCounts } from './monitor-store';

export interface BeginCheckInput {
  monitorId: string;
  checkId: string;
  trigger: CheckTrigger;
  /** The run doing the check. */
  workflowId: string;
  /** When the Schedule meant it to run (epoch ms); absent for a manual check. */
  scheduledFor?: number;
}

/** A running check's targets, as its workflow needs them: ids and kinds only. */
export interface BegunCheck {
  status: CheckStatus | 'gone';
  teamId?: string;
  targets?: Pick<TargetPlan, 'id' | 'type'>[];
  /** Changes are judged by the LLM against the monitor's goal. */
  judge?: boolean;
}

/** Whether a workflow is still running: an overlapping check whose run ended is not waited for. */
export type RunningProbe = (workflowId: string) => Promise<boolean>;

/**
 * Records the start of a check, once: a monitor deleted meanwhile ends it (`gone`); an earlier
 * check still running makes it skipped_overlap (the partial unique index on running checks
 * decides a race); a team that cannot pay for a page makes it skipped_no_credits. A retry finds
 * the row its first attempt wrote and answers the same.
 */
export async function beginCheck(db: Db, input: BeginCheckInput, isRunning: RunningProbe): Promise<BegunCheck> {
  const [monitor] = await db.select().from(monitors).where(eq(monitors.id, input.monitorId));
  if (!monitor) return { status: 'gone' };
  const running = (status: CheckStatus): BegunCheck =>
    status === 'running' ? { status, teamId: monitor.teamId, targets: monitor.plans.map(({ id, type }) => ({ id, type })), judge: monitor.judgeEnabled } : { status };
  const [existing] = await db.select({ status: monitorChecks.status }).from(monitorChecks).where(eq(monitorChecks.id, input.checkId));
  if (existing) return running(existing.status);

  const base = {
    id: input.checkId,
    monitorId: monitor.id,
    teamId: monitor.teamId,
    trigger: input.trigger,
    workflowId: input.workflowId,
    ...(input.scheduledFor !== undefined && { scheduledFor: new Date(input.scheduledFor) }),
  };
  const skip = async (status: 'skipped_overlap' | 'skipped_no_credits', error: string) => {
    const now = new Date();
    await db.insert(monitorChecks).values({ ...base, status, startedAt: now, finishedAt: now, error, actualCredits: 0 }).onConflictDoNothing();
    const [row] = await db.select({ status: monitorChecks.status }).from(monitorChecks).where(eq(monitorChecks.id, input.checkId));
    return running(row?.status ?? status);
  };

  const [other] = await db
    .select({ id: monitorChecks.id, workflowId: monitorChecks.workflowId })
    .from(monitorChecks)
    .where(and(eq(monitorChecks.monitorId, monitor.id), eq(monitorChecks.status, 'running'), ne(monitorChecks.id, input.checkId)));
  if (other) {
    if (await isRunning(other.workflowId)) return skip('skipped_overlap', `Check ${other.id} of this monitor was still running`);
    await db
      .update(monitorChecks)
      .set({ status: 'failed', error: 'Its workflow ended before the check finished', finishedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(monitorChecks.id, other.id), eq(monitorChecks.status, 'running')));
  }

  const balance = await creditBalance(db, monitor.teamId);
  if (balance < MIN_CHECK_CREDITS) return skip('skipped_no_credits', `The team has ${balance} credits; a check needs at least ${MIN_CHECK_CREDITS}`);

  const estimatedCredits = estimateCheckCredits(plansOf(monitor), await snapshotCounts(db, monitor.id));
  // Either key may conflict: the id (a retry raced this one) or the one-running-check index.
  await db.insert(monitorChecks).values({ ...base, status: 'running', startedAt: new Date(), estimatedCredits }).onConflictDoNothing();
  const [row] = await db.select({ status: monitorChecks.status }).from(monitorChecks).where(eq(monitorChecks.id, input.checkId));
  return row ? running(row.status) : skip('skipped_overlap', 'Another check of this monitor started at the same time');
}
