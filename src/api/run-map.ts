import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { mapWorkflow } from '../../workflows';
import type { AuthenticatedTeam } from '../accounts/api-keys';
import type { MapOptions } from '../crawl/map-site';
import { PRICES } from '../credits/pricing';
import { jobs } from '../db/schema';
import { createJob } from '../jobs/job-store';
import { awaitWorkflowResult } from '../temporal/await-result';
import type { ApiDeps } from './api-deps';
import { checkTarget, requireCredits } from './preflight';
import { teamPriority } from '../limits/team-priority';

const DEFAULT_MAP_TIMEOUT_MS = 60_000;

/** A site's URLs as a short workflow (`map-<id>`), waited on. Shared by /v1/map and /v2/map. */
export async function runMap(deps: ApiDeps, team: AuthenticatedTeam, options: MapOptions): Promise<{ jobId: string; links: string[] }> {
  await checkTarget(deps.gate, options.url);
  await requireCredits(deps.db, team.teamId, PRICES.map, 'A map');
  const jobId = randomUUID();
  await createJob(deps.db, { id: jobId, teamId: team.teamId, kind: 'map', url: options.url, options, ttlHours: deps.config.JOB_TTL_HOURS });
  const timeoutMs = options.timeout ?? DEFAULT_MAP_TIMEOUT_MS;
  const run = deps.temporal.workflow.execute(mapWorkflow, {
    taskQueue: deps.config.taskQueues.http,
    workflowId: `map-${jobId}`,
    priority: teamPriority(team, deps.config.TEAM_PAGES_IN_FLIGHT),
    args: [{ jobId, timeoutMs }],
    workflowExecutionTimeout: timeoutMs * 2 + 30_000,
  });
  await awaitWorkflowResult(run, timeoutMs, 'map');
  const [job] = await deps.db.select({ result: jobs.result }).from(jobs).where(eq(jobs.id, jobId));
  return { jobId, links: (job?.result as { links: string[] } | null)?.links ?? [] };
}
