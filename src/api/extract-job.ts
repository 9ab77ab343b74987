import { randomUUID } from 'node:crypto';
import { extractWorkflow } from '../../workflows';
import type { AuthenticatedTeam } from '../accounts/api-keys';
import { PRICES } from '../credits/pricing';
import { AppError } from '../errors';
import type { JsonSchema } from '../json-schema/json-schema';
import { requireLlmForPromptOnly } from '../scrape/extract-spec-fields';
import { isUrlPattern, patternBase, type PatternPage } from '../extract/url-pattern';
import { findExtraction } from '../jobs/extraction-store';
import { createJob, findJob } from '../jobs/job-store';
import type { ScrapeOptions } from '../scrape/scrape-options';
import { urlKey } from '../url/normalize-url';
import type { ApiDeps } from './api-deps';
import { checkTarget, requireCredits } from './preflight';
import { teamPriority } from '../limits/team-priority';

/** Time an extract job may run: its pages, then the engines (an LLM may take minutes per page). */
const EXTRACT_RUN_TIMEOUT = '2 hours';

/** What an extract job needs of its request, v1 or v2 (validated by the route's schema). */
export interface ExtractJobRequest {
  urls?: string[] | undefined;
  schema?: JsonSchema | undefined;
  prompt?: string | undefined;
  systemPrompt?: string | undefined;
  allowExternalLinks: boolean;
  includeSubdomains: boolean;
  ignoreSitemap: boolean;
  showSources: boolean;
  ignoreInvalidURLs: boolean;
}

/**
 * Checks the URLs and credits and starts `extract-<id>`, which the caller then polls. Each page
 * is scraped with `scrapeOptions` (as markdown; the engines read the stored page). `jobOptions`
 * is what the job row keeps (its status reads `showSources` there).
 */
export async function startExtract(
  deps: ApiDeps,
  team: AuthenticatedTeam,
  request: ExtractJobRequest,
  scrapeOptions: ScrapeOptions,
  jobOptions: unknown,
): Promise<{ id: string; invalidURLs?: string[] }> {
  requireLlmForPromptOnly(request, deps.config.llm);
  const urls = request.urls ?? [];
  const pages: PatternPage[] = [];
  const patterns: string[] = [];
  const invalidURLs: string[] = [];
  for (const [i, url] of urls.entries()) {
    if (isUrlPattern(url)) {
      const parsed = patternBase(url);
      if (!parsed) throw new AppError('BAD_REQUEST', `${url}: only a trailing /* is a wildcard (https://host/path/*)`, [{ path: `urls.${i}`, message: 'not a https://host/path/* wildcard' }]);
      await checkTarget(deps.gate, parsed.base);
      patterns.push(url);
      continue;
    }
    try {
      const target = await checkTarget(deps.gate, url);
      const key = urlKey(target.href);
      if (!pages.some((p) => p.urlKey === key)) pages.push({ url, urlKey: key });
    } catch (err) {
      if (!(request.ignoreInvalidURLs && err instanceof AppError)) throw err;
      invalidURLs.push(url);
    }
  }
  if (pages.length === 0 && patterns.length === 0) {
    throw new AppError('BAD_REQUEST', 'None of the URLs can be read', invalidURLs.map((url) => ({ path: 'urls', message: `cannot read ${url}` })));
  }

  // A wildcard reads at least one page.
  const needed = PRICES.extractPage * (pages.length + patterns.length);
  await requireCredits(deps.db, team.teamId, needed, 'This extract');

  const pageOptions: ScrapeOptions = { ...scrapeOptions, formats: ['markdown'] };
  delete pageOptions.jsonOptions;
  const jobId = randomUUID();
  await createJob(deps.db, { id: jobId, teamId: team.teamId, kind: 'extract', url: pages[0]?.url ?? patterns[0]!, options: jobOptions, ttlHours: deps.config.JOB_TTL_HOURS });
  await deps.temporal.workflow.start(extractWorkflow, {
    taskQueue: deps.config.taskQueues.http,
    workflowId: `extract-${jobId}`,
    priority: teamPriority(team, deps.config.TEAM_PAGES_IN_FLIGHT),
    workflowExecutionTimeout: EXTRACT_RUN_TIMEOUT,
    args: [
      {
        jobId,
        teamId: team.teamId,
        pages,
        patterns,
        discovery: { includeSubdomains: request.includeSubdomains, allowExternalLinks: request.allowExternalLinks, ignoreSitemap: request.ignoreSitemap },
        spec: { ...(request.schema && { schema: request.schema }), ...(request.prompt && { prompt: request.prompt }), ...(request.systemPrompt && { systemPrompt: request.systemPrompt }) },
        scrapeOptions: pageOptions,
        browserQueue: deps.config.taskQueues.browser,
      },
    ],
  });
  return { id: jobId, ...(request.ignoreInvalidURLs && { invalidURLs }) };
}

/** An extract job's state, data and notes (GET /v1/extract/:id); another team's job is not found. */
export async function extractStatus(deps: ApiDeps, teamId: string, id: string) {
  const job = await findJob(deps.db, teamId, id);
  if (!job || job.kind !== 'extract') throw new AppError('NOT_FOUND', 'No extract job with this id');
  if (job.expiresAt.getTime() < Date.now()) throw new AppError('NOT_FOUND', `This extract job expired at ${job.expiresAt.toISOString()}`);
  const result = await findExtraction(deps.db, job.id);
  const done = job.status === 'completed' && result?.completedAt ? result : undefined;
  const options = job.options as { showSources?: boolean };
  return {
    success: true as const,
    status: job.status === 'scraping' ? ('processing' as const) : job.status,
    data: done?.data ?? null,
    notes: done?.notes ?? [],
    ...(options.showSources && done && { sources: done.sources ?? [] }),
    ...(job.error && { error: job.error }),
    creditsUsed: done?.credits ?? 0,
    tokensUsed: done?.llmTokens ?? 0,
    expiresAt: job.expiresAt.toISOString(),
  };
}
