import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { z } from 'zod';
import { searchWorkflow } from '../../../workflows';
import { searchResultCredits } from '../../credits/pricing';
import { jobs, pages, searchResults } from '../../db/schema';
import { requireLlmForPromptOnly } from '../../extract/spec-fields';
import { createJob } from '../../jobs/job-store';
import { pageColumns, pageToDocument } from '../../jobs/page-document';
import type { SearchJobResult } from '../../search/finish-search';
import { searchOptionsOf, searchRequestSchema, type SearchOptions } from '../../search/search-options';
import { awaitWorkflowResult } from '../../temporal/await-result';
import type { ApiDeps } from '../api-deps';
import { requireCredits } from '../preflight';
import type { RouteTable } from '../route';
import { documentSchema } from '../schemas/document-schema';

const searchResultSchema = documentSchema.partial({ metadata: true }).extend({
  url: z.string(),
  title: z.string(),
  description: z.string(),
  score: z.number().describe('The blend of provider rank and BM25 relevance the results are ordered by, in (0, 1].'),
});

/** The job's ranked results, best first, with the formats asked for when pages were scraped. */
async function rankedResults(deps: ApiDeps, jobId: string, options: SearchOptions) {
  const { formats } = options.scrapeOptions;
  const rows = await deps.db
    .select({ result: searchResults, page: pageColumns })
    .from(searchResults)
    .leftJoin(pages, and(eq(pages.jobId, searchResults.jobId), eq(pages.urlKey, searchResults.urlKey), eq(searchResults.scraped, true)))
    .where(and(eq(searchResults.jobId, jobId), isNotNull(searchResults.rank)))
    .orderBy(asc(searchResults.rank));
  return rows.map(({ result, page }) => {
    const document = page ? pageToDocument(page, formats) : undefined;
    return {
      url: result.url,
      title: result.title || document?.metadata.title || '',
      description: result.description || document?.metadata.description || '',
      score: result.score ?? 0,
      ...document,
    };
  });
}

export function registerSearchRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v1/search',
    tag: 'Search',
    summary: 'Search the web (or this deployment\'s pages) and scrape the results',
    description:
      'Runs `search-<id>`: the configured provider chain (SEARCH_PROVIDER) finds candidates, their pages are scraped in parallel when `scrapeOptions.formats` is not empty, and results are ranked by a blend of provider rank and BM25 relevance. 2 credits per result, 5 per result whose page was scraped (+4 with the json format).',
    auth: true,
    body: searchRequestSchema,
    responses: {
      200: {
        description: 'Results, best first; an empty `data` comes with `warning: "No search results found"`',
        schema: z.object({ success: z.literal(true), id: z.string().describe('The search job; its workflow is search-<id>.'), data: z.array(searchResultSchema), warning: z.string().optional() }),
      },
      402: { description: 'The balance cannot cover `limit` results (INSUFFICIENT_CREDITS)' },
      502: { description: 'Every configured search provider failed or timed out; the message names each (SEARCH_PROVIDER_ERROR)' },
    },
    handler: async (ctx, { body }) => {
      const { team } = ctx.state;
      const options = searchOptionsOf(body);
      if (options.scrapeOptions.jsonOptions) requireLlmForPromptOnly(options.scrapeOptions.jsonOptions, deps.config.llm);
      await requireCredits(deps.db, team.teamId, options.limit * searchResultCredits(options.scrapeOptions.formats), 'This search');

      const jobId = randomUUID();
      const acceptedAt = Date.now();
      await createJob(deps.db, { id: jobId, teamId: team.teamId, kind: 'search', options, ttlHours: deps.config.JOB_TTL_HOURS });
      const run = deps.temporal.workflow.execute(searchWorkflow, {
        taskQueue: deps.config.taskQueues.http,
        workflowId: `search-${jobId}`,
        staticSummary: `search: ${options.query.slice(0, 200)}`,
        workflowExecutionTimeout: options.timeout + 60_000,
        args: [{ jobId, teamId: team.teamId, options, acceptedAt, browserQueue: deps.config.taskQueues.browser }],
      });
      await awaitWorkflowResult(run, options.timeout, 'search');
      const [job] = await deps.db.select({ result: jobs.result }).from(jobs).where(eq(jobs.id, jobId));
      const { warning } = (job?.result ?? {}) as Partial<SearchJobResult>;
      ctx.body = { success: true, id: jobId, data: await rankedResults(deps, jobId, options), ...(warning && { warning }) };
    },
  });
}
