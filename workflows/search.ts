import { CancellationScope, isCancellation, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { SearchActivities } from '../activities/search';
import type { SearchWorkflowInput } from '../src/search/search-options';
import { describeFailure, pageActivities, scrapePage } from './page-activities';

export type { SearchWorkflowInput };

/** Part of `timeout` kept for ranking and answering: a fifth, at most 1.5 s. */
function finishReserve(timeoutMs: number): number {
  return Math.min(1_500, timeoutMs / 5);
}

/**
 * Scrapes the candidates in parallel until the deadline. Answers the URL keys of the pages that
 * were stored in time (only those may be returned: a page cut off at the deadline can still be
 * stored afterwards by an activity that had not yet seen the cancellation) and a warning per
 * kind of dropped page.
 */
async function scrapeCandidates(
  input: SearchWorkflowInput,
  toScrape: { url: string; urlKey: string }[],
  deadline: number,
): Promise<{ stored: string[]; warnings: string[] }> {
  const { scrapeOptions } = input.options;
  const pageTimeout = Math.max(1, Math.min(scrapeOptions.timeout, deadline - Date.now()));
  const acts = pageActivities(pageTimeout, input.browserQueue);
  const stored: { url: string; urlKey: string }[] = [];
  const failed: string[] = [];
  const late: string[] = [];
  const work = new CancellationScope();
  const scraping = work.run(() =>
    Promise.all(
      toScrape.map(async ({ url, urlKey }) => {
        const task = {
          jobId: input.jobId,
          teamId: input.teamId,
          url,
          urlKey,
          depth: 0,
          options: scrapeOptions,
          deadline: Math.min(deadline, Date.now() + scrapeOptions.timeout),
          operation: 'search' as const,
          chargeKey: `search:${input.jobId}:${urlKey}`,
          finishJob: false,
        };
        try {
          await scrapePage(task, acts);
          stored.push({ url, urlKey });
        } catch (err) {
          const code = isCancellation(err) ? 'CANCELLED' : describeFailure(err).code;
          // A page cut off by the search's own deadline was still loading, not broken.
          if (code === 'CANCELLED' || (code === 'SCRAPE_TIMEOUT' && task.deadline === deadline)) late.push(url);
          else failed.push(`${url} (${code})`);
        }
      }),
    ),
  );
  const clock = new CancellationScope();
  const timer = clock.run(() => sleep(Math.max(1, deadline - Date.now())));
  const first = await Promise.race([scraping.then(() => 'done' as const), timer.then(() => 'deadline' as const)]);
  const settledAtDeadline = stored.length;
  (first === 'done' ? clock : work).cancel();
  await Promise.allSettled([scraping, timer]);
  // A page stored after the deadline arrived too late to be counted.
  late.push(...stored.slice(settledAtDeadline).map((s) => s.url));
  return {
    stored: stored.slice(0, settledAtDeadline).map((s) => s.urlKey),
    warnings: [
      ...(failed.length > 0 ? [`Dropped ${failed.length} result page(s) that could not be scraped: ${failed.join(', ')}.`] : []),
      ...(late.length > 0 ? [`Dropped ${late.length} result page(s) still loading at the ${input.options.timeout} ms timeout: ${late.join(', ')}.`] : []),
    ],
  };
}

/**
 * `search-<jobId>`: ask the provider chain for candidates, scrape the best of them in parallel
 * when formats are asked for, then rank, keep `limit` and charge (activities/search.ts). The
 * candidates and pages live in Postgres; history holds URLs and counts.
 */
export async function searchWorkflow(input: SearchWorkflowInput): Promise<{ results: number }> {
  const { options } = input;
  const deadline = input.acceptedAt + options.timeout - finishReserve(options.timeout);
  // Both steps are short database or provider calls: local activities, run in the worker that
  // runs this workflow, save a task-queue round trip and a workflow task each.
  const { findSearchCandidates } = proxyLocalActivities<SearchActivities>({
    startToCloseTimeout: Math.max(1_000, deadline - Date.now()) + 5_000,
    retry: { initialInterval: '300ms', maximumAttempts: 3 },
  });
  const { finishSearch } = proxyLocalActivities<SearchActivities>({ startToCloseTimeout: '30s', retry: { initialInterval: '300ms', maximumAttempts: 5 } });
  const found = await findSearchCandidates({ jobId: input.jobId, options, deadline });
  const scraped = found.toScrape.length > 0 ? await scrapeCandidates(input, found.toScrape, deadline) : { stored: [], warnings: [] };
  return finishSearch({
    jobId: input.jobId,
    teamId: input.teamId,
    options,
    provider: found.provider,
    scrapedKeys: scraped.stored,
    warnings: [...found.warnings, ...scraped.warnings],
  });
}
