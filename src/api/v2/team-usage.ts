import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { jobs, ledger, pageExtractions, pages } from '../../db/schema';

/** One calendar month (UTC) of use. */
export interface UsagePeriod {
  startDate: string;
  endDate: string;
  amount: number;
}

const month = (column: unknown) => sql<Date>`date_trunc('month', ${column}, 'UTC')`;

function periods(rows: { start: Date | string; amount: number | string }[]): UsagePeriod[] {
  return rows.map((r) => {
    const start = new Date(r.start);
    const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1) - 1);
    return { startDate: start.toISOString(), endDate: end.toISOString(), amount: Number(r.amount) };
  });
}

/** Credits the team was charged per month, oldest first (the ledger's charges; grants are not use). */
export async function creditsByMonth(db: Db, teamId: string): Promise<UsagePeriod[]> {
  const start = month(ledger.createdAt);
  const rows = await db
    .select({ start, amount: sql<number>`-sum(${ledger.amount})` })
    .from(ledger)
    .where(and(eq(ledger.teamId, teamId), sql`${ledger.amount} < 0`))
    .groupBy(start)
    .orderBy(start);
  return periods(rows);
}

/** Credits ever granted to the team: what its "plan" amounts to here. */
export async function creditsGranted(db: Db, teamId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledger.amount}), 0)` })
    .from(ledger)
    .where(and(eq(ledger.teamId, teamId), sql`${ledger.amount} > 0`));
  return Number(row?.total ?? 0);
}

/** LLM tokens the team's extractions used per month (extract jobs and json-format scrapes), oldest first. */
export async function tokensByMonth(db: Db, teamId: string): Promise<UsagePeriod[]> {
  const start = month(pageExtractions.createdAt);
  const rows = await db
    .select({ start, amount: sql<number>`sum(${pageExtractions.llmTokens})` })
    .from(pageExtractions)
    .innerJoin(jobs, eq(jobs.id, pageExtractions.jobId))
    .where(eq(jobs.teamId, teamId))
    .groupBy(start)
    .orderBy(start);
  return periods(rows);
}

/** The team's work under way: pages being fetched, pages waiting, and when its last job finished well. */
export async function queueCounts(db: Db, teamId: string): Promise<{ active: number; waiting: number; mostRecentSuccess: Date | null }> {
  const [pageCounts] = await db
    .select({
      active: sql<string>`count(*) filter (where ${pages.status} = 'scraping')`,
      waiting: sql<string>`count(*) filter (where ${pages.status} = 'queued')`,
    })
    .from(pages)
    .innerJoin(jobs, eq(jobs.id, pages.jobId))
    .where(and(eq(jobs.teamId, teamId), eq(jobs.status, 'scraping'), inArray(pages.status, ['scraping', 'queued'])));
  // A single-page job has no page row until it is done: count the job itself while it runs.
  const [singles] = await db
    .select({ n: sql<string>`count(*)` })
    .from(jobs)
    .where(and(eq(jobs.teamId, teamId), eq(jobs.status, 'scraping'), inArray(jobs.kind, ['scrape', 'screenshot', 'map', 'search'])));
  const [last] = await db
    .select({ at: sql<Date | null>`max(${jobs.finishedAt})` })
    .from(jobs)
    .where(and(eq(jobs.teamId, teamId), eq(jobs.status, 'completed')));
  return {
    active: Number(pageCounts?.active ?? 0) + Number(singles?.n ?? 0),
    waiting: Number(pageCounts?.waiting ?? 0),
    mostRecentSuccess: last?.at ? new Date(last.at) : null,
  };
}
