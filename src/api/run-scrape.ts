import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Counter } from 'prom-client';
import type { scrapeWorkflow } from '../../workflows';
import { findCachedCopy } from '../../activities/scrape-page';
import type { AuthenticatedTeam } from '../accounts/api-keys';
import type { AdmissionTicket } from '../limits/scrape-admission';
import { pageCredits } from '../credits/pricing';
import { pages } from '../db/schema';
import { METRIC_PREFIX, metrics } from '../metrics/registry';
import { requireLlmForPromptOnly } from '../scrape/extract-spec-fields';
import { createJob, discardJob } from '../jobs/job-store';
import { pageColumns, type PageRow } from '../db/page-row';
import type { PageTask } from '../jobs/page-task';
import { contentVariant } from '../scrape/content-variant';
import { browserRequiredBy } from '../scrape/engine-choice';
import type { ScrapeOptions } from '../scrape/scrape-options';
import { awaitWorkflowResult } from '../temporal/await-result';
import { urlKey } from '../url/normalize-url';
import type { ApiDeps } from './api-deps';
import { checkTarget, requireCredits } from './preflight';
import type { Prefetch } from './prefetched-pages';
import { startScrapeWorkflow } from './start-scrape';

const scrapeAnswers = new Counter({
  name: `${METRIC_PREFIX}scrape_answers_total`,
  help: "Scrapes this API answered, by where it learnt the page was stored: its own scrape worker, as the page was committed (here), or the workflow's result through Temporal (workflow).",
  labelNames: ['from'] as const,
  registers: [metrics],
});

/**
 * Begins the page's fetch while the workflow starts, for this process's scrape worker to take
 * over (PrefetchedPages), when its first activity would fetch over plain HTTP: not for a browser
 * render, nor when a stored copy answers (`maxAge`). The activity that takes the fetch over does
 * not look for a copy again; on a hit there is no fetch here, and the activity finds the copy.
 */
async function fetchAhead(deps: ApiDeps, task: Pick<PageTask, 'jobId' | 'url' | 'urlKey' | 'options' | 'operation'>): Promise<Prefetch | undefined> {
  const worker = deps.scrapeWorker;
  if (!worker?.eagerClient || browserRequiredBy(task.options)) return undefined;
  // Only a speed-up: should the lookup fail, the activity looks for a copy and fetches itself.
  const cached = await findCachedCopy(deps.db, task, contentVariant(task.options)).catch(() => 'unknown' as const);
  if (cached) return undefined;
  return worker.prefetch(task.jobId, task.url, task.options, Date.now() + task.options.timeout);
}

/** LLM requests a json-format scrape may wait for: schema inference, the answer and its repair. */
const JSON_LLM_REQUESTS = 3;

/**
 * One URL through a short scrape workflow (`scrape-<jobId>`), waited on; answers the stored
 * page. Shared by /v1/scrape and /v2/scrape. `jobOptions` is what the job row keeps (the
 * options by default; v2 adds how to show the page). `ticket` is the request's place
 * (RouteSpec.admission), made the team's here before any other work.
 */
export async function runScrape(
  deps: ApiDeps,
  ticket: AdmissionTicket,
  team: AuthenticatedTeam,
  url: string,
  options: ScrapeOptions,
  clientGone: AbortSignal,
  jobOptions: unknown = options,
): Promise<PageRow> {
  if (options.jsonOptions) requireLlmForPromptOnly(options.jsonOptions, deps.config.llm);
  const llmMs = options.formats.includes('json') && deps.config.llm ? deps.config.llm.timeoutMs * JSON_LLM_REQUESTS : 0;
  // First: a team at its own limit is refused before any other work (no DNS, no balance read).
  ticket.admit(team.teamId);
  const needed = pageCredits({
    renderer: browserRequiredBy(options) ? 'browser' : 'http',
    screenshot: options.formats.some((f) => f.startsWith('screenshot')),
    json: options.formats.includes('json'),
  });
  // The host's DNS lookup, the balance read and the job row's write overlap (one round trip
  // less on every scrape); a refused scrape's row goes again. A refused URL is still the answer
  // when both checks fail.
  const jobId = randomUUID();
  const [checked, credited, created] = await Promise.allSettled([
    checkTarget(deps.gate, url),
    requireCredits(deps.db, team.teamId, needed, 'This scrape'),
    createJob(deps.db, { id: jobId, teamId: team.teamId, kind: 'scrape', url, options: jobOptions, ttlHours: deps.config.JOB_TTL_HOURS }),
  ]);
  const refused = [checked, credited].find((r) => r.status === 'rejected');
  if (refused) {
    // The refusal stays the answer: a row left behind has no workflow, and the reconciler fails it.
    if (created.status === 'fulfilled') await discardJob(deps.db, jobId).catch((err: unknown) => deps.logger.warn({ err, jobId }, "a refused scrape's job row could not be removed"));
    throw refused.reason;
  }
  if (created.status === 'rejected') throw created.reason;
  const target = (checked as PromiseFulfilledResult<URL>).value;

  const workflowId = `scrape-${jobId}`;
  // Should this process's scrape worker run it (an eager start), the page is read as soon as it
  // is committed there, without waiting for the workflow's completion to come back through Temporal.
  const here = deps.scrapeWorker?.finishedScrapes.expect(jobId);
  const task = { jobId, teamId: team.teamId, url, urlKey: urlKey(target.href), depth: 0, pageId: jobId, options, operation: 'scrape' as const, chargeKey: `scrape:${jobId}`, finishJob: true };
  let fetching: Prefetch | undefined;
  try {
    fetching = await fetchAhead(deps, task);
    await startScrapeWorkflow(deps, {
      taskQueue: deps.config.taskQueues.scrape,
      workflowId,
      workflowExecutionTimeout: options.timeout * 3 + 60_000 + llmMs,
      // The page fetch is a local activity inside a workflow task, which learns of a cancel (its
      // client gave up) only when the task heartbeats, at 80% of this timeout (10 s by default).
      workflowTaskTimeout: '4s',
      args: [{ task, browserQueue: deps.config.taskQueues.browser }],
    });
    const run = deps.temporal.workflow
      .getHandle<typeof scrapeWorkflow>(workflowId)
      .result()
      .then(({ pageId }) => ({ pageId, row: undefined, from: 'workflow' as const }));
    const storedHere = here?.stored.then(({ pageId, row }) => ({ pageId, row, from: 'here' as const }));
    const outcome = await awaitWorkflowResult(storedHere ? Promise.race([run, storedHere]) : run, options.timeout + llmMs, 'scrape', {
      clientGone,
      cancel: () => deps.temporal.workflow.getHandle(workflowId).cancel(),
    });
    scrapeAnswers.inc({ from: outcome.from });
    // Stored here, the row came with the news; otherwise it is read.
    if (outcome.row) return outcome.row;
    const [row] = await deps.db.select(pageColumns).from(pages).where(eq(pages.id, outcome.pageId));
    return row!;
  } finally {
    here?.release();
    fetching?.release();
  }
}
