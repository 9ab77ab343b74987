import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../db/client';
import { jobs } from '../db/schema';
import type { AgentStep } from './agent-run';

/**
 * An agent run's trace and answer live in its job row's `result`: `steps` keyed by the step's
 * name in the run (so a retried or replayed step writes its record once), `data` and `sources`
 * when it ends, and `creditsUsed`.
 */
export interface AgentResult {
  steps?: Record<string, AgentStep>;
  data?: unknown;
  sources?: Record<string, string[]> | string[];
  creditsUsed?: number;
}

/** Records one step, once: a second record under the same key keeps the first. Answers whether this call recorded it. */
export async function recordAgentStep(db: Queryable, jobId: string, key: string, step: AgentStep): Promise<boolean> {
  // One UPDATE appends under the row lock, so steps recorded at the same time all land.
  const rows = await db.execute<{ id: string }>(sql`
    update ${jobs}
    set result = coalesce(result, '{}'::jsonb)
      || jsonb_build_object('steps', coalesce(result -> 'steps', '{}'::jsonb) || jsonb_build_object(${key}::text, ${JSON.stringify(step)}::jsonb))
    where id = ${jobId}::uuid and not (coalesce(result -> 'steps', '{}'::jsonb) ? ${key}::text)
    returning id`);
  return rows.length > 0;
}

export async function findAgentStep(db: Db, jobId: string, key: string): Promise<AgentStep | undefined> {
  const [row] = await db.execute<{ step: AgentStep | null }>(sql`select result -> 'steps' -> ${key}::text as step from ${jobs} where id = ${jobId}::uuid`);
  return row?.step ?? undefined;
}

/** A run's steps in order. */
export async function listAgentSteps(db: Db, jobId: string): Promise<AgentStep[]> {
  const [row] = await db.execute<{ steps: Record<string, AgentStep> | null }>(sql`select result -> 'steps' as steps from ${jobs} where id = ${jobId}::uuid`);
  return Object.values(row?.steps ?? {}).sort((a, b) => a.seq - b.seq);
}

/**
 * Ends a run with what it found, once. A run the API already marked cancelled keeps that status
 * and gains its data.
 */
export async function endAgentRun(
  db: Db,
  jobId: string,
  end: { status: 'completed' | 'failed' | 'cancelled'; data: unknown; sources: AgentResult['sources']; creditsUsed: number; error?: { code: string; message: string } },
): Promise<void> {
  const answer = { data: end.data, sources: end.sources, creditsUsed: end.creditsUsed };
  await db.execute(sql`
    update ${jobs}
    set status = case when status = 'scraping' then ${end.status} else status end,
      finished_at = coalesce(finished_at, now()),
      error_code = coalesce(error_code, ${end.error?.code ?? null}), error = coalesce(error, ${end.error?.message ?? null}),
      result = coalesce(result, '{}'::jsonb) || ${JSON.stringify(answer)}::jsonb
    where id = ${jobId}::uuid and not (coalesce(result, '{}'::jsonb) ? 'creditsUsed')`);
}

/** Marks a run cancelled at the client's request (its workflow then ends it with what it found). */
export async function cancelAgentRun(db: Db, jobId: string): Promise<void> {
  await db.update(jobs).set({ status: 'cancelled', errorCode: 'CANCELLED', error: 'The agent run was cancelled', finishedAt: new Date() }).where(and(eq(jobs.id, jobId), eq(jobs.status, 'scraping')));
}

/** A team's agent runs, most recent first, created before `before` (epoch ms) when given. */
export async function listAgentRuns(db: Db, teamId: string, limit: number, before?: number) {
  return db
    .select({ id: jobs.id, status: jobs.status, options: jobs.options, createdAt: jobs.createdAt, url: jobs.url })
    .from(jobs)
    .where(and(eq(jobs.teamId, teamId), eq(jobs.kind, 'agent'), before === undefined ? undefined : lt(jobs.createdAt, new Date(before))))
    .orderBy(desc(jobs.createdAt))
    .limit(limit);
}
