/** Least time a single-page scrape's workflow gets, whatever its `timeout`. */
const MIN_BUDGET_MS = 60_000;

/**
 * How long a scrape's or screenshot's workflow may work on its page. The request's `timeout` is
 * how long its client waits for the answer; past it the client is told the work continues (408,
 * `processing_continues`) and may ask again, so the work itself gets at least a minute.
 */
export function singlePageBudgetMs(timeoutMs: number): number {
  return Math.max(timeoutMs, MIN_BUDGET_MS);
}
