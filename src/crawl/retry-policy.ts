/** Tries a crawl page gets before it is recorded as failed. */
export const MAX_PAGE_ATTEMPTS = 3;
/** A Retry-After longer than this is not waited for; the page fails instead. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** Retry-After as milliseconds from now: delta-seconds or an HTTP date; null when absent or junk. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * When a page that failed its `attempts`-th try may be tried again: what the site asked for
 * (Retry-After) or exponential backoff from one second; null when it should not be retried.
 */
export function nextAttemptDelay(attempts: number, retryAfterMs: number | null): number | null {
  if (attempts >= MAX_PAGE_ATTEMPTS) return null;
  if (retryAfterMs !== null && retryAfterMs > MAX_RETRY_AFTER_MS) return null;
  return Math.max(retryAfterMs ?? 0, 1000 * 2 ** (attempts - 1));
}
