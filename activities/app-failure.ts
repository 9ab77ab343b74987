import { ApplicationFailure, Context } from '@temporalio/activity';
import { AppError } from '../src/errors';

/**
 * Runs an activity body and turns our typed errors into Temporal failures whose `type` is the
 * error code. Permanent codes are non-retryable, so Temporal stops at the first attempt; any
 * other error stays retryable. The AppError rides along as the cause, so the worker's log line
 * for the failure shows where it was thrown.
 */
export async function withAppFailures<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) {
      throw ApplicationFailure.create({
        type: err.code,
        message: err.message,
        nonRetryable: err.permanent,
        details: [{ attempt: Context.current().info.attempt }],
        cause: err,
      });
    }
    throw err;
  }
}
