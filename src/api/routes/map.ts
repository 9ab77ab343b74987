import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { mapWorkflow } from '../../../workflows';
import { mapRequestSchema } from '../../crawl/crawl-options';
import { PRICES } from '../../credits/pricing';
import { jobs } from '../../db/schema';
import { createJob } from '../../jobs/job-store';
import { awaitWorkflowResult } from '../../temporal/await-result';
import type { ApiDeps } from '../api-deps';
import { checkTarget, requireCredits } from '../preflight';
import type { RouteTable } from '../route';

const DEFAULT_MAP_TIMEOUT_MS = 60_000;

export function registerMapRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v1/map',
    tag: 'Crawling',
    summary: "List a site's URLs without scraping it",
    description: 'Sitemaps plus the links of the start page, in scope, as a short workflow `map-<id>`. 1 credit.',
    auth: true,
    body: mapRequestSchema,
    responses: {
      200: { description: 'The URLs', schema: z.object({ success: z.literal(true), links: z.array(z.string()) }) },
      402: { description: 'No credits (INSUFFICIENT_CREDITS)' },
      403: { description: 'Not a public URL (URL_BLOCKED)' },
    },
    handler: async (ctx, { body }) => {
      const { team } = ctx.state;
      await checkTarget(deps.gate, body.url);
      await requireCredits(deps.db, team.teamId, PRICES.map, 'A map');
      const { origin: _o, integration: _i, ...options } = body;
      const jobId = randomUUID();
      await createJob(deps.db, { id: jobId, teamId: team.teamId, kind: 'map', url: body.url, options, ttlHours: deps.config.JOB_TTL_HOURS });
      const timeoutMs = body.timeout ?? DEFAULT_MAP_TIMEOUT_MS;
      const run = deps.temporal.workflow.execute(mapWorkflow, {
        taskQueue: deps.config.taskQueues.http,
        workflowId: `map-${jobId}`,
        args: [{ jobId, timeoutMs }],
        workflowExecutionTimeout: timeoutMs * 2 + 30_000,
      });
      await awaitWorkflowResult(run, timeoutMs, 'map');
      const [job] = await deps.db.select({ result: jobs.result }).from(jobs).where(eq(jobs.id, jobId));
      ctx.body = { success: true, links: (job?.result as { links: string[] } | null)?.links ?? [] };
    },
  });
}
