import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

export interface RetentionPass {
  snapshots: number;
  jobs: number;
  checks: number;
}

/** Older than the monitor's own retention (`m` is the monitors row in scope). */
const expired = (column: string) => sql.raw(`${column} < now() - make_interval(days => m.retention_days)`);

/**
 * Removes, per monitor, what is older than its `retentionDays`: snapshots last seen before
 * then (a page seen again later counts as new), the jobs of checks made before then (their
 * pages cascade) unless a page of theirs is still a snapshot, and those checks (their pages
 * cascade). A running check is never touched. Each statement is idempotent, so a retried run
 * finishes what an interrupted one began.
 */
export async function removeExpiredMonitorData(db: Db): Promise<RetentionPass> {
  const snapshots = await db.execute(sql`
    DELETE FROM monitor_snapshots s USING monitors m
    WHERE m.id = s.monitor_id AND ${expired('s.seen_at')}`);
  const jobs = await db.execute(sql`
    DELETE FROM jobs j USING monitor_jobs mj, monitors m
    WHERE j.id = mj.job_id AND m.id = mj.monitor_id
      AND (mj.check_id IS NULL OR EXISTS (
        SELECT 1 FROM monitor_checks c WHERE c.id = mj.check_id AND c.status <> 'running' AND ${expired('c.created_at')}))
      AND NOT EXISTS (SELECT 1 FROM monitor_snapshots s JOIN pages p ON p.id = s.page_id WHERE p.job_id = j.id)`);
  const checks = await db.execute(sql`
    DELETE FROM monitor_checks c USING monitors m
    WHERE m.id = c.monitor_id AND c.status <> 'running' AND ${expired('c.created_at')}`);
  return { snapshots: snapshots.count, jobs: jobs.count, checks: checks.count };
}
