import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs, monitorCheckPages, monitorChecks, monitorJobs, monitors, monitorSnapshots } from '../db/schema';
import type { CheckStatus, PageStatus } from './monitor-plan';

export type MonitorRow = typeof monitors.$inferSelect;
export type NewMonitor = typeof monitors.$inferInsert;
export type CheckRow = typeof monitorChecks.$inferSelect;
export type CheckPageRow = typeof monitorCheckPages.$inferSelect;

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** A monitor of this team; another team's is indistinguishable from a missing one. */
export async function findMonitor(db: Db, teamId: string, id: string): Promise<MonitorRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(monitors).where(and(eq(monitors.id, id), eq(monitors.teamId, teamId)));
  return row;
}

/** The team's monitors, newest first. */
export async function listMonitors(db: Db, teamId: string, limit: number, offset: number): Promise<{ rows: MonitorRow[]; total: number }> {
  const rows = await db.select().from(monitors).where(eq(monitors.teamId, teamId)).orderBy(desc(monitors.createdAt), desc(monitors.id)).limit(limit).offset(offset);
  const [total] = await db.select({ n: count() }).from(monitors).where(eq(monitors.teamId, teamId));
  return { rows, total: total?.n ?? 0 };
}

export async function insertMonitor(db: Db, row: NewMonitor): Promise<MonitorRow> {
  const [inserted] = await db.insert(monitors).values(row).returning();
  return inserted!;
}

export async function updateMonitorRow(db: Db, id: string, patch: Partial<NewMonitor>): Promise<MonitorRow> {
  const [updated] = await db.update(monitors).set({ ...patch, updatedAt: new Date() }).where(eq(monitors.id, id)).returning();
  return updated!;
}

/** Removes a monitor with everything it made: its checks, snapshots, and the jobs (and pages) its checks ran. */
export async function deleteMonitorData(db: Db, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(jobs).where(inArray(jobs.id, tx.select({ id: monitorJobs.jobId }).from(monitorJobs).where(eq(monitorJobs.monitorId, id))));
    await tx.delete(monitorJobs).where(eq(monitorJobs.monitorId, id));
    await tx.delete(monitors).where(eq(monitors.id, id));
  });
}

/** Per monitor: its newest check, and the one running now. */
export async function checkStateOf(db: Db, monitorIds: string[]): Promise<Map<string, { latest?: CheckRow; runningId?: string }>> {
  const out = new Map<string, { latest?: CheckRow; runningId?: string }>(monitorIds.map((id) => [id, {}]));
  if (monitorIds.length === 0) return out;
  const latest = await db
    .selectDistinctOn([monitorChecks.monitorId])
    .from(monitorChecks)
    .where(inArray(monitorChecks.monitorId, monitorIds))
    .orderBy(monitorChecks.monitorId, desc(monitorChecks.createdAt), desc(monitorChecks.id));
  for (const check of latest) out.get(check.monitorId)!.latest = check;
  const running = await db.select({ id: monitorChecks.id, monitorId: monitorChecks.monitorId }).from(monitorChecks).where(and(inArray(monitorChecks.monitorId, monitorIds), eq(monitorChecks.status, 'running')));
  for (const r of running) out.get(r.monitorId)!.runningId = r.id;
  return out;
}

/** Snapshots per target: how many pages a crawl target found last, for estimates. */
export async function snapshotCounts(db: Db, monitorId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ targetId: monitorSnapshots.targetId, n: sql<number>`count(*)::int` })
    .from(monitorSnapshots)
    .where(eq(monitorSnapshots.monitorId, monitorId))
    .groupBy(monitorSnapshots.targetId);
  return new Map(rows.map((r) => [r.targetId, r.n]));
}

/** A monitor's checks, newest first. */
export async function listChecks(db: Db, monitorId: string, o: { limit: number; offset: number; status?: CheckStatus | undefined }): Promise<{ rows: CheckRow[]; total: number }> {
  const where = and(eq(monitorChecks.monitorId, monitorId), o.status ? eq(monitorChecks.status, o.status) : undefined);
  const rows = await db.select().from(monitorChecks).where(where).orderBy(desc(monitorChecks.createdAt), desc(monitorChecks.id)).limit(o.limit).offset(o.offset);
  const [total] = await db.select({ n: count() }).from(monitorChecks).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findCheck(db: Db, monitorId: string, checkId: string): Promise<CheckRow | undefined> {
  if (!isUuid(checkId)) return undefined;
  const [row] = await db.select().from(monitorChecks).where(and(eq(monitorChecks.id, checkId), eq(monitorChecks.monitorId, monitorId)));
  return row;
}

/** One page of a check's pages, by target and URL, optionally of one status. */
export async function checkPages(db: Db, checkId: string, o: { skip: number; limit: number; status?: PageStatus | undefined }): Promise<{ rows: CheckPageRow[]; total: number }> {
  const where = and(eq(monitorCheckPages.checkId, checkId), o.status ? eq(monitorCheckPages.status, o.status) : undefined);
  const rows = await db.select().from(monitorCheckPages).where(where).orderBy(asc(monitorCheckPages.targetId), asc(monitorCheckPages.urlKey)).limit(o.limit).offset(o.skip);
  const [total] = await db.select({ n: count() }).from(monitorCheckPages).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** A check's page as Firecrawl's API and webhooks show it (MonitorCheckPage's fields). */
export function checkPageFields(p: CheckPageRow) {
  return {
    id: p.id,
    targetId: p.targetId,
    url: p.url,
    status: p.status,
    previousScrapeId: p.previousPageId,
    currentScrapeId: p.pageId,
    statusCode: p.statusCode,
    error: p.error,
    metadata: p.metadata,
    diff: p.diff,
    judgment: p.judgment ?? null,
  };
}
