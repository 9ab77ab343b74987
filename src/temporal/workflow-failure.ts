import { ApplicationFailure, TimeoutFailure } from '@temporalio/common';
import { AppError, isErrorCode } from '../errors';

/**
 * The AppError a failed workflow stands for: the innermost ApplicationFailure whose type is
 * one of our codes, or a timeout. Anything else is returned unchanged (an internal error).
 */
export function workflowFailureToAppError(err: unknown): unknown {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof ApplicationFailure && isErrorCode(e.type)) return new AppError(e.type, e.message);
    if (e instanceof TimeoutFailure) return new AppError('SCRAPE_TIMEOUT', 'The job did not finish within its timeout');
  }
  return err;
}
