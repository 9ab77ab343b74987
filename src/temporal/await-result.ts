import { AppError } from '../errors';
import { workflowFailureToAppError } from './workflow-failure';

/** Time the API waits beyond a job's own timeout for Temporal to hand back the result. */
export const RESULT_GRACE_MS = 20_000;

/**
 * The result of a short workflow the API waits on, or SCRAPE_TIMEOUT once the job's timeout
 * (plus a grace for Temporal itself) has passed; a workflow failure becomes its AppError.
 */
export async function awaitWorkflowResult<T>(run: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AppError('SCRAPE_TIMEOUT', `The ${what} did not finish within ${timeoutMs} ms`)), timeoutMs + RESULT_GRACE_MS);
  });
  try {
    return await Promise.race([run, timeout]);
  } catch (err) {
    throw workflowFailureToAppError(err);
  } finally {
    clearTimeout(timer);
  }
}
