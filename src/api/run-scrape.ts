import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
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
import { findResumable, markResumable } from '../jobs/resumable-scrapes';
import { continuingError, isContinuing } from './continuing';
import { singlePageBudgetMs } from '../scrape/page-budget';
import type { ApiDeps } from './api-deps';
import { checkTarget, requireCredits } from './preflight';
import type { FinishedScrapeWait } from './finished-scrapes';
import type { Prefetch } from './prefetched-pages';
import { startScrapeWorkflow } from './start-scrape';

const scrapeAnswers = new Counter({
  name: `${METRIC_PREFIX}scrape_answers_total`,
  help: "Scrapes this API answered, by where it learnt the page was stored: its own scrape worker, as the page was committed (here), the workflow's result through Temporal (workflow), or an earlier identical request's scrape after a 408 (resumed).",
  labelNames: ['from'] as const,
  registers: [metrics],
});

/**
 * Begins the page's fetch while the workflow starts, for this process's scrape worker to take
 * over (PrefetchedPages), when its first activity would fetch over plain HTTP: not for a browser
 * render, nor when a stored copy answers (`maxAge`), nor when the worker is full (the start would
 * go through the queue to another worker, and the page would be fetched twice). The activity that
 * takes the fetch over does not look for a copy again; on a hit there is no fetch here, and the
 * activity finds the copy.
 */
async function fetchAhead(deps: ApiDeps, task: Pick<PageTask, 'jobId' | 'teamId' | 'url' | 'urlKey' | 'options' | 'operation'>): Promise<Prefetch | undefined> {
  const worker = deps.scrapeWorker;
  if (!worker?.eagerClient || !worker.hasRoom || browserRequiredBy(task.options)) return undefined;
  // Only a speed-up: should the lookup fail, the activity looks for a copy and fetches itself.
  const cached = await findCachedCopy(deps.db, task, contentVariant(task.options)).catch(() => 'unknown' as const);
  if (cached) return undefined;
  return worker.prefetch(task.jobId, task.teamId, task.url, task.options, Date.now() + singlePageBudgetMs(task.options.timeout));
}

/** How long a scrape started eagerly here is waited for here alone before its workflow's result is asked for too. */
const HERE_FIRST_MS = 3_000;

/** LLM requests a json-format scrape may wait for: schema inference, the answer and its repair. */
const JSON_LLM_REQUESTS = 3;

/** How a scrape's request is known again when it is sent once more (resumeKeyOf of its route and body). */
export interface ScrapeRequest {
  team: AuthenticatedTeam;
  url: string;
  options: ScrapeOptions;
  clientGone: AbortSignal;
  /** What the job row keeps (the options by default; v2 adds how to show the page). */
  jobOptions?: unknown;
  /** resumeKeyOf(route, body): the same request sent after a 408 gets the same job's page. */
  resumeKey: string;
}

/**
 * One URL through a short scrape workflow (`scrape-<jobId>`), waited on; answers the stored
 * page. Shared by /v1/scrape and /v2/scrape. `ticket` is the request's place
 * (RouteSpec.admission), made the team's here before any other work.
 *
 * The workflow waits its turn in the scrape queue, its team the fairness key. Should the page not
 * be ready within the request's `timeout`, the answer is 408 with `processing_continues` and the
 * work goes on (its page budget); the same request sent again within RESUME_WINDOW_MS waits for
 * that job instead of starting another, so the page is fetched and charged once.
 */
export async function runScrape(deps: ApiDeps, ticket: AdmissionTicket, r: ScrapeRequest): Promise<PageRow> {
  const { team, url, options } = r;
  if (options.jsonOptions) requireLlmForPromptOnly(options.jsonOptions, deps.config.llm);
  const llmMs = options.formats.includes('json') && deps.config.llm ? deps.config.llm.timeoutMs * JSON_LLM_REQUESTS : 0;
  // First: a team at its own limit, or a queue whose wait passes the timeout, is refused before any other work.
  const priority = ticket.admit(team, options.timeout);
  const needed = pageCredits({
    renderer: browserRequiredBy(options) ? 'browser' : 'http',
    screenshot: options.formats.some((f) => f.startsWith('screenshot')),
    json: options.formats.includes('json'),
  });
  // The host's DNS lookup, the balance read, the job row's write and the look for a scrape this
  // request left running overlap (one round trip on every scrape); a refused or resumed
  // scrape's row goes again. A refused URL is still the answer when both checks fail.
  const jobId = randomUUID();
  const [checked, credited, created, resumable] = await Promise.allSettled([
    checkTarget(deps.gate, url),
    requireCredits(deps.db, team.teamId, needed, 'This scrape'),
    createJob(deps.db, { id: jobId, teamId: team.teamId, kind: 'scrape', url, options: r.jobOptions ?? options, ttlHours: deps.config.JOB_TTL_HOURS }),
    findResumable(deps.db, team.teamId, r.resumeKey),
  ]);
  const resumed = resumable.status === 'fulfilled' ? resumable.value : undefined;
  const refused = resumed ? undefined : [checked, credited].find((x) => x.status === 'rejected');
  if (refused || resumed) {
    // A row left behind has no workflow, and the reconciler fails it.
    if (created.status === 'fulfilled') await discardJob(deps.db, jobId).catch((err: unknown) => deps.logger.warn({ err, jobId }, "a scrape's unused job row could not be removed"));
    if (refused) throw refused.reason;
    return resumeScrape(deps, resumed!, options.timeout + llmMs);
  }
  if (created.status === 'rejected') throw created.reason;
  const target = (checked as PromiseFulfilledResult<URL>).value;

  const workflowId = `scrape-${jobId}`;
  // Should this process's scrape worker run it (an eager start), the page is read as soon as it
  // is committed there, without waiting for the workflow's completion to come back through Temporal.
  const here = deps.scrapeWorker?.finishedScrapes.expect(jobId);
  const task = { jobId, teamId: team.teamId, url, urlKey: urlKey(target.href), depth: 0, pageId: jobId, options, operation: 'scrape' as const, chargeKey: `scrape:${jobId}`, finishJob: true };
  let fetching: Prefetch | undefined;
  const answered = new AbortController();
  try {
    fetching = await fetchAhead(deps, task);
    const eagerly = await startScrapeWorkflow(deps, {
      taskQueue: deps.config.taskQueues.scrape,
      workflowId,
      priority,
      workflowExecutionTimeout: singlePageBudgetMs(options.timeout) * 3 + 60_000 + llmMs,
      // The page fetch is a local activity inside a workflow task, which heartbeats at 80% of this
      // timeout; only then does it learn of a cancel (its client gave up). Under load a page waits
      // its turn for a processing thread inside that task: at 4 s, heartbeats of a saturated
      // machine came back after the task had timed out, each timeout ran the task again elsewhere,
      // and at 128 clients 663 such timeouts cut served/s from 31 to 10 (`npm run bench overload`).
      workflowTaskTimeout: '10s',
      args: [{ task, browserQueue: deps.config.taskQueues.browser }],
    });
    const run = here && eagerly ? workflowPageUnlessHere(deps, jobId, here, answered.signal) : workflowPage(deps, jobId);
    const storedHere = here?.stored.then(({ pageId, row }) => ({ pageId, row, from: 'here' as const }));
    const outcome = await awaitWorkflowResult(
      storedHere ? Promise.race([run, storedHere]) : run,
      options.timeout + llmMs,
      'scrape',
      { clientGone: r.clientGone, cancel: () => deps.temporal.workflow.getHandle(workflowId).cancel() },
      { atTimeout: () => continuingError(deps, jobId, options.timeout + llmMs) },
    ).catch(async (err: unknown) => {
      if (isContinuing(err)) await markResumable(deps.db, jobId, r.resumeKey);
      throw err;
    });
    scrapeAnswers.inc({ from: outcome.from });
    return await pageOf(deps, outcome);
  } finally {
    answered.abort();
    here?.release();
    fetching?.release();
  }
}

/** The outcome of the scrape workflow of `jobId`, as Temporal hands it back (running or closed). */
function workflowPage(deps: ApiDeps, jobId: string) {
  return deps.temporal.workflow
    .getHandle<typeof scrapeWorkflow>(`scrape-${jobId}`)
    .result()
    .then(({ pageId }) => ({ pageId, row: undefined as PageRow | undefined, from: 'workflow' as const }));
}

/**
 * The workflow's outcome for a scrape started eagerly on this process's worker, asked of Temporal
 * only when the page step here ended without the page, or has not ended after HERE_FIRST_MS (the
 * worker may have dropped the task, to run again elsewhere). Most such scrapes are answered from
 * here first, and a wait on a workflow's result is a long poll held by the Temporal server for
 * the scrape's whole life: sparing it is a good part of the server's work per scrape. Never
 * settles once the request has its answer (`answered`).
 */
async function workflowPageUnlessHere(deps: ApiDeps, jobId: string, here: FinishedScrapeWait, answered: AbortSignal): ReturnType<typeof workflowPage> {
  await Promise.race([here.passedOn, sleep(HERE_FIRST_MS, undefined, { signal: answered }).catch(() => undefined)]);
  return answered.aborted ? new Promise<never>(() => undefined) : workflowPage(deps, jobId);
}

/** The stored page an outcome names: the row itself when it came with the news, else read. */
async function pageOf(deps: ApiDeps, outcome: { pageId: string; row: PageRow | undefined }): Promise<PageRow> {
  if (outcome.row) return outcome.row;
  const [row] = await deps.db.select(pageColumns).from(pages).where(eq(pages.id, outcome.pageId));
  return row!;
}

/**
 * Waits for the scrape an earlier, identical request left running or finished (the SDK's resume
 * after a 408). Its workflow is not this request's to cancel: a client that goes away leaves it.
 */
async function resumeScrape(deps: ApiDeps, jobId: string, timeoutMs: number): Promise<PageRow> {
  const outcome = await awaitWorkflowResult(workflowPage(deps, jobId), timeoutMs, 'scrape', undefined, { atTimeout: () => continuingError(deps, jobId, timeoutMs) });
  scrapeAnswers.inc({ from: 'resumed' });
  return pageOf(deps, outcome);
}
