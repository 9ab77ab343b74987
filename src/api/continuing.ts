import { AppError, type ContinuingDetails } from '../errors';
import { RESUME_WINDOW_MS } from '../jobs/resumable-scrapes';
import type { ApiDeps } from './api-deps';

/**
 * The 408 of a scrape or parse whose work goes on past its client's `timeout`, in Firecrawl's
 * shape: the same request sent again after `retryAfterSeconds` gets the document.
 */
export function continuingError(deps: Pick<ApiDeps, 'admission'>, jobId: string, timeoutMs: number): AppError {
  const retryAfterSeconds = deps.admission.continuingRetryAfterSeconds();
  const details: ContinuingDetails = { state: 'processing_continues', retryAfterSeconds, scrapeId: jobId };
  return new AppError(
    'SCRAPE_TIMEOUT',
    `The page was not ready within ${timeoutMs} ms; it is still being scraped. Send the same request again in ${retryAfterSeconds} s (within ${RESUME_WINDOW_MS / 60_000} minutes) for the page, scraped and charged once.`,
    details,
    { retryAfterSeconds },
  );
}

export function isContinuing(err: unknown): boolean {
  return err instanceof AppError && !Array.isArray(err.details) && err.details?.state === 'processing_continues';
}
