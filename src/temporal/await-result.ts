import { AppError } from '../errors';
import { workflowFailureToAppError } from './workflow-failure';

/** Time the API waits beyond a job's own timeout for Temporal to hand back the result. */
export const RESULT_GRACE_MS = 20_000;

/** How the API gives up on a workflow nobody waits for any more. */
export interface Abandon {
  /** Aborted when the client closed its connection. */
  clientGone: AbortSignal;
  /** Cancels the workflow, whose activities then stop through their abort signals. */
  cancel(): Promise<unknown>;
}

/** A workflow that goes on after its client's `timeout`, whose answer the client may ask for again. */
export interface Continues {
  /** The error answered at the timeout (408 with `processing_continues`); the workflow is not cancelled. */
  atTimeout(): AppError;
}

/**
 * The result of a short workflow the API waits on, or SCRAPE_TIMEOUT once the job's timeout
 * (plus a grace for Temporal itself) has passed; a workflow failure becomes its AppError. With
 * `abandon`, a timeout or a client that went away cancels the workflow, so no worker goes on
 * with work whose answer nobody will read. With `continues`, the answer comes at the timeout
 * itself and only a client that went away cancels: the work goes on for the request sent again.
 */
export async function awaitWorkflowResult<T>(run: Promise<T>, timeoutMs: number, what: string, abandon?: Abandon, continues?: Continues): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let giveUp: ((reason: AppError, cancel: boolean) => void) | undefined;
  const givenUp = new Promise<never>((_, reject) => {
    giveUp = (reason, cancel) => {
      reject(reason);
      run.catch(() => undefined); // nobody reads it any more
      if (!abandon || !cancel) return;
      // Best effort: should Temporal not take the cancel, the workflow still ends at its own timeout.
      abandon.cancel().catch(() => undefined);
    };
  });
  const onGone = () => giveUp!(new AppError('SCRAPE_TIMEOUT', `The client closed its connection before the ${what} finished`), true);
  timer = continues
    ? setTimeout(() => giveUp!(continues.atTimeout(), false), timeoutMs)
    : setTimeout(() => giveUp!(new AppError('SCRAPE_TIMEOUT', `The ${what} did not finish within ${timeoutMs} ms`), true), timeoutMs + RESULT_GRACE_MS);
  // A client may have gone while the workflow was being started.
  if (abandon?.clientGone.aborted) onGone();
  else abandon?.clientGone.addEventListener('abort', onGone, { once: true });
  try {
    return await Promise.race([run, givenUp]);
  } catch (err) {
    throw workflowFailureToAppError(err);
  } finally {
    clearTimeout(timer);
    abandon?.clientGone.removeEventListener('abort', onGone);
  }
}
