import { Writable } from 'node:stream';
import { WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, DefaultFailureConverter, defaultPayloadConverter, ensureApplicationFailure, RetryState, TimeoutFailure, TimeoutType } from '@temporalio/common';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors';
import { loggerOptions } from '../../src/log';
import { serializeError, type LoggedError } from '../../src/log-errors';

/** What activities/app-failure.ts throws for an AppError, inside what the workflow receives. */
function failedActivity(appError: AppError): ActivityFailure {
  const failure = ApplicationFailure.create({ type: appError.code, message: appError.message, nonRetryable: true, details: [{ attempt: 1 }], cause: appError });
  return new ActivityFailure('Activity task failed', 'scrapePageHttp', '1', RetryState.NON_RETRYABLE_FAILURE, 'worker@host', failure);
}

/** The error as it reaches the other side of Temporal: encoded to a failure and decoded again. */
function overTheWire(err: Error): Error {
  const converter = new DefaultFailureConverter();
  return converter.failureToError(converter.errorToFailure(err, defaultPayloadConverter), defaultPayloadConverter);
}

function blocked(): AppError {
  return new AppError('URL_BLOCKED', '10.9.8.7 is not a public address; only public http(s) URLs can be fetched');
}

/** The JSON lines a logger built like the service's writes. */
function logLines(write: (logger: pino.Logger) => void): Record<string, unknown>[] {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  write(pino(loggerOptions('test', 'info'), sink));
  return chunks.join('').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('serializeError', () => {
  it('shows the AppError inside an activity failure: its code, message and the stack where it was thrown', () => {
    const logged = serializeError(failedActivity(blocked())) as LoggedError;
    expect(logged).toMatchObject({
      type: 'AppError',
      code: 'URL_BLOCKED',
      message: '10.9.8.7 is not a public address; only public http(s) URLs can be fetched',
      wrappedIn: ['ActivityFailure: Activity task failed', 'ApplicationFailure: 10.9.8.7 is not a public address; only public http(s) URLs can be fetched'],
    });
    expect(logged.stack).toMatch(/^AppError: 10\.9\.8\.7 is not a public address.*\n\s+at blocked \(.*log-errors\.test\.ts/);
  });

  it('unwraps a workflow failure received over the wire, keeping our code and the original stack, not the raw protobuf', () => {
    const err = new WorkflowFailedError('Workflow execution failed', overTheWire(failedActivity(blocked())), RetryState.NON_RETRYABLE_FAILURE);
    const logged = serializeError(err) as LoggedError;
    expect(logged).toMatchObject({ code: 'URL_BLOCKED', message: '10.9.8.7 is not a public address; only public http(s) URLs can be fetched' });
    expect(logged.stack).toContain('at blocked (');
    expect(logged.wrappedIn?.[0]).toBe('WorkflowFailedError: Workflow execution failed');
    expect(logged).not.toHaveProperty('failure');
  });

  it('takes a Temporal failure\'s type as the code when no documented code exists', () => {
    // The worker sends an activity's stray error as an ApplicationFailure typed with its name.
    const fromTypeError = overTheWire(ensureApplicationFailure(new TypeError("Cannot read properties of undefined (reading 'url')")));
    expect(serializeError(fromTypeError)).toMatchObject({ code: 'TypeError', message: "Cannot read properties of undefined (reading 'url')" });
    const timeout = new TimeoutFailure('Activity task timed out', undefined, TimeoutType.START_TO_CLOSE);
    expect(serializeError(new ActivityFailure('Activity task failed', 'crawlBatch', '2', RetryState.TIMEOUT, 'w', timeout))).toMatchObject({
      code: 'TimeoutFailure',
      message: 'Activity task timed out',
    });
  });

  it('keeps a system error\'s own code, and a cause\'s message and stack after its own', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(serializeError(reset)).toMatchObject({ code: 'ECONNRESET', message: 'read ECONNRESET' });
    const wrapped = new Error('Could not store the page', { cause: reset });
    const logged = serializeError(wrapped) as LoggedError;
    expect(logged).toMatchObject({ code: 'Error', message: 'Could not store the page: read ECONNRESET' });
    expect(logged.stack).toMatch(/^Error: Could not store the page\n[\s\S]*\ncaused by: Error: read ECONNRESET\n/);
  });

  it('prefers the innermost documented code in the chain', () => {
    const inner = new AppError('SCRAPE_CONNECTION_ERROR', 'Could not connect to example.com');
    const outer = ApplicationFailure.create({ type: 'INTERNAL_ERROR', message: 'the batch failed', cause: inner });
    expect(serializeError(outer)).toMatchObject({ code: 'SCRAPE_CONNECTION_ERROR', message: 'Could not connect to example.com' });
  });

  it('leaves what is not an error alone', () => {
    expect(serializeError('a string')).toBe('a string');
    expect(serializeError({ status: 500 })).toEqual({ status: 500 });
  });
});

describe('the service logger', () => {
  it('writes code, message and stack for an error under `err` or `error`', () => {
    const [ours, temporals] = logLines((logger) => {
      logger.error({ err: new AppError('LLM_ERROR', 'The model answered 500') }, 'unhandled error');
      logger.warn({ error: failedActivity(blocked()), durationMs: 3 }, 'Activity failed');
    });
    expect(ours?.err).toMatchObject({ code: 'LLM_ERROR', message: 'The model answered 500', stack: expect.stringMatching(/^AppError: The model answered 500\n\s+at /) });
    expect(temporals?.error).toMatchObject({ code: 'URL_BLOCKED', message: expect.stringContaining('10.9.8.7'), stack: expect.stringContaining('at blocked (') });
  });
});
