import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { searchWorkflow } from '../../workflows';
import type { AuthenticatedTeam } from '../accounts/api-keys';
import { searchResultCredits } from '../credits/pricing';
import { jobs, pages, searchResults } from '../db/schema';
import { requireLlmForPromptOnly } from '../scrape/extract-spec-fields';
import { createJob } from '../jobs/job-store';
import { pageColumns, type PageRow } from '../db/page-row';
import type { SearchJobResult } from '../search/finish-search';
import type { SearchOptions } from '../search/search-options';
import { awaitWorkflowResult } from '../temporal/await-result';
import type { ApiDeps } from './api-deps';
import { requireCredits } from './preflight';
import { teamPriority } from '../limits/team-priority';

/** One returned result: the provider's view, and the scraped page when formats were asked for. */
export interface RankedResult {
  url: string;
  title: string;
  description: string;
  score: number;
  /** The result's scraped page (scraped results only). */
  page?: PageRow;
  /** The local index's stored page the hit came from. */
  indexedPageId: string | null;
}

/** The job's ranked results, best first. */
async function rankedResults(deps: ApiDeps, jobId: string): Promise<RankedResult[]> {
  const rows = await deps.db
    .select({ result: searchResults, page: pageColumns })
    .from(searchResults)
    .leftJoin(pages, and(eq(pages.jobId, searchResults.jobId), eq(pages.urlKey, searchResults.urlKey), eq(searchResults.scraped, true)))
    .where(and(eq(searchResults.jobId, jobId), isNotNull(searchResults.rank)))
    .orderBy(asc(searchResults.rank));
  return rows.map(({ result, page }) => ({
    url: result.url,
    title: result.title || page?.metadata?.title || '',
    description: result.description || page?.metadata?.description || '',
    score: result.score ?? 0,
    indexedPageId: result.indexedPageId,
    ...(page && { page }),
  }));
}

/**
 * One search as a workflow (`search-<id>`), waited on: the provider chain's candidates, scraped
 * when formats are asked for, ranked. Shared by /v1/search and /v2/search (once per source).
 */
export async function runSearch(deps: ApiDeps, team: AuthenticatedTeam, options: SearchOptions): Promise<{ jobId: string; results: RankedResult[]; warning?: string }> {
  if (options.scrapeOptions.jsonOptions) requireLlmForPromptOnly(options.scrapeOptions.jsonOptions, deps.config.llm);
  await requireCredits(deps.db, team.teamId, options.limit * searchResultCredits(options.scrapeOptions.formats), 'This search');

  const jobId = randomUUID();
  const acceptedAt = Date.now();
  await createJob(deps.db, { id: jobId, teamId: team.teamId, kind: 'search', options, ttlHours: deps.config.JOB_TTL_HOURS });
  const run = deps.temporal.workflow.execute(searchWorkflow, {
    taskQueue: deps.config.taskQueues.http,
    workflowId: `search-${jobId}`,
    priority: teamPriority(team, deps.config.TEAM_PAGES_IN_FLIGHT),
    staticSummary: `search: ${options.query.slice(0, 200)}`,
    workflowExecutionTimeout: options.timeout + 60_000,
    args: [{ jobId, teamId: team.teamId, options, acceptedAt, browserQueue: deps.config.taskQueues.browser }],
  });
  await awaitWorkflowResult(run, options.timeout, 'search');
  const [job] = await deps.db.select({ result: jobs.result }).from(jobs).where(eq(jobs.id, jobId));
  const { warning } = (job?.result ?? {}) as Partial<SearchJobResult>;
  return { jobId, results: await rankedResults(deps, jobId), ...(warning && { warning }) };
}
