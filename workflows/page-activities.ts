import type { ActivityOptions, LocalActivityOptions } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure, proxyActivities, proxyLocalActivities, TimeoutFailure } from '@temporalio/workflow';
import type { ExtractActivities } from '../activities/extract';
import type { ScrapeActivities } from '../activities/scrape-page';
import type { PageTask, PageTaskFailure, PageTaskOutcome } from '../src/jobs/page-task';
import { browserRequiredBy } from '../src/scrape/engine-choice';

export type StoredOutcome = Extract<PageTaskOutcome, { kind: 'stored' }>;

const MAX_ATTEMPTS = 3;
/** Retries of page work: quick, a few, never outliving the page's schedule-to-close timeout. */
export const PAGE_RETRY = { initialInterval: '300ms', backoffCoefficient: 2, maximumInterval: '5s', maximumAttempts: MAX_ATTEMPTS };

/**
 * Page activities with timeouts derived from the page's own `timeout`: retries back off but
 * never outlive it (schedule-to-close), and browser renders heartbeat so a dead worker is
 * noticed in seconds. The plain-HTTP step is a local activity: it runs in the worker that runs
 * the workflow, inside the same workflow task, which saves a task-queue round trip and a second
 * workflow task on every scrape (a page fetch is short and needs no heartbeat).
 */
export function pageActivities(timeoutMs: number, browserQueue: string, o: { httpAsActivity?: boolean } = {}) {
  const httpOptions: LocalActivityOptions & ActivityOptions = {
    startToCloseTimeout: timeoutMs + 5_000,
    // As a regular activity, an attempt lost with its worker is noticed only at its
    // start-to-close timeout; the retry still gets a whole \`timeout\` after it.
    scheduleToCloseTimeout: o.httpAsActivity ? timeoutMs * 2 + 20_000 : timeoutMs + 15_000,
    retry: PAGE_RETRY,
  };
  const browserOptions: ActivityOptions = {
    taskQueue: browserQueue,
    startToCloseTimeout: timeoutMs + 10_000,
    scheduleToCloseTimeout: timeoutMs * 2 + 20_000,
    heartbeatTimeout: '10s',
    retry: PAGE_RETRY,
  };
  // LLM extraction can take minutes on a long page; the heartbeat notices a dead worker sooner.
  const extract = proxyActivities<ExtractActivities>({
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: '30s',
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: MAX_ATTEMPTS },
  });
  return {
    // A regular activity's result is in history as soon as it ends; a local activity's only with
    // its workflow task. A run of many pages (an agent's) takes the former, so a worker killed
    // mid-run never fetches a finished page again.
    http: o.httpAsActivity ? proxyActivities<ScrapeActivities>(httpOptions) : proxyLocalActivities<ScrapeActivities>(httpOptions),
    browser: proxyActivities<ScrapeActivities>(browserOptions),
    extract,
    httpOptions,
    browserOptions,
  };
}

export type PageActivities = ReturnType<typeof pageActivities>;

/**
 * Plain HTTP first unless the options need a browser; the browser when HTTP says so. With the
 * json format, the stored page is then read by the extraction engines, which charge for it.
 */
export async function scrapePage(task: PageTask, acts: PageActivities): Promise<StoredOutcome> {
  // The summary names the page in the Temporal UI's activity list.
  const first: PageTaskOutcome = browserRequiredBy(task.options)
    ? { kind: 'needs-browser', reason: 'options' }
    : await acts.http.scrapePageHttp.executeWithOptions({ ...acts.httpOptions, summary: task.url }, [task]);
  const outcome = first.kind === 'needs-browser' ? await acts.browser.scrapePageBrowser.executeWithOptions({ ...acts.browserOptions, summary: task.url }, [task]) : first;
  if (outcome.kind !== 'stored') throw ApplicationFailure.nonRetryable('the browser render did not store the page', 'INTERNAL_ERROR');
  if (!task.options.formats.includes('json')) return outcome;
  const extracted = await acts.extract.extractPageData({ jobId: task.jobId, pageId: outcome.pageId, spec: task.options.jsonOptions ?? {}, task });
  return { ...outcome, credits: extracted.credits };
}

/** The code, message and attempt count of a page's final failure. */
export function describeFailure(err: unknown): PageTaskFailure {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    const attempt = (cause.details?.[0] as { attempt?: number } | undefined)?.attempt;
    const code = cause.type && /^[A-Z_]+$/.test(cause.type) ? cause.type : 'INTERNAL_ERROR';
    return { code, message: cause.message, attempts: attempt ?? MAX_ATTEMPTS };
  }
  if (cause instanceof TimeoutFailure) return { code: 'SCRAPE_TIMEOUT', message: 'The page did not finish within its timeout', attempts: MAX_ATTEMPTS };
  return { code: 'INTERNAL_ERROR', message: cause instanceof Error ? cause.message : String(cause), attempts: MAX_ATTEMPTS };
}
