import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { scrapeWorkflow } from '../../../workflows';
import { pageCredits } from '../../credits/pricing';
import { pages } from '../../db/schema';
import { requireLlmForPromptOnly } from '../../extract/spec-fields';
import { createJob } from '../../jobs/job-store';
import { pageColumns, pageToDocument } from '../../jobs/page-document';
import { browserRequiredBy } from '../../scrape/engine-choice';
import { scrapeOptionsOf, scrapeRequestSchema } from '../../scrape/scrape-options';
import { awaitWorkflowResult } from '../../temporal/await-result';
import { urlKey } from '../../url/normalize-url';
import type { ApiDeps } from '../api-deps';
import { checkTarget, requireCredits } from '../preflight';
import type { RouteTable } from '../route';
import { documentSchema } from '../schemas/document-schema';

/** LLM requests a json-format scrape may wait for: schema inference, the answer and its repair. */
const JSON_LLM_REQUESTS = 3;

export function registerScrapeRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v1/scrape',
    tag: 'Scraping',
    summary: 'Scrape one URL',
    description:
      'Runs the scrape as a short Temporal workflow (`scrape-<scrapeId>`) and answers with the document. The target\'s own 4xx/5xx comes back as 200 with `metadata.statusCode`.',
    auth: true,
    body: scrapeRequestSchema,
    responses: {
      200: { description: 'The scraped document', schema: z.object({ success: z.literal(true), data: documentSchema }) },
      402: { description: 'Not enough credits (INSUFFICIENT_CREDITS)' },
      403: { description: 'Not a public http(s) URL (URL_BLOCKED)' },
      408: { description: 'The page did not finish within timeout (SCRAPE_TIMEOUT)' },
      422: { description: 'jsonOptions has a prompt but no schema, and no LLM is configured (LLM_NOT_CONFIGURED)' },
      502: { description: 'The target could not be fetched (SCRAPE_DNS_RESOLUTION_ERROR, SCRAPE_CONNECTION_ERROR, SCRAPE_SSL_ERROR, SCRAPE_TOO_LARGE), or the LLM failed (LLM_ERROR)' },
    },
    handler: async (ctx, { body }) => {
      const { team } = ctx.state;
      const options = scrapeOptionsOf(body);
      if (options.jsonOptions) requireLlmForPromptOnly(options.jsonOptions, deps.config.llm);
      const llmMs = options.formats.includes('json') && deps.config.llm ? deps.config.llm.timeoutMs * JSON_LLM_REQUESTS : 0;
      const target = await checkTarget(deps.gate, body.url);
      const needed = pageCredits({
        renderer: browserRequiredBy(options) ? 'browser' : 'http',
        screenshot: options.formats.some((f) => f.startsWith('screenshot')),
        json: options.formats.includes('json'),
      });
      await requireCredits(deps.db, team.teamId, needed, 'This scrape');

      const jobId = randomUUID();
      await createJob(deps.db, { id: jobId, teamId: team.teamId, kind: 'scrape', url: body.url, options, ttlHours: deps.config.JOB_TTL_HOURS });
      const run = deps.temporal.workflow.execute(scrapeWorkflow, {
        taskQueue: deps.config.taskQueues.http,
        workflowId: `scrape-${jobId}`,
        workflowExecutionTimeout: options.timeout * 3 + 60_000 + llmMs,
        args: [
          {
            task: {
              jobId,
              teamId: team.teamId,
              url: body.url,
              urlKey: urlKey(target.href),
              depth: 0,
              pageId: jobId,
              options,
              operation: 'scrape',
              chargeKey: `scrape:${jobId}`,
              finishJob: true,
            },
            browserQueue: deps.config.taskQueues.browser,
          },
        ],
      });
      const outcome = await awaitWorkflowResult(run, options.timeout + llmMs, 'scrape');
      const [row] = await deps.db.select(pageColumns).from(pages).where(eq(pages.id, outcome.pageId));
      ctx.body = { success: true, data: pageToDocument(row!, options.formats) };
    },
  });
}
