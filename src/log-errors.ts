import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, TemporalFailure } from '@temporalio/common';
import pino from 'pino';
import { isErrorCode, type ErrorCode } from './errors';

/** An error as a log line carries it. */
export interface LoggedError {
  type: string;
  /** Our documented code when the chain has one, else the error's own code or type. */
  code: string;
  message: string;
  stack: string;
  /** The Temporal failures around it, outermost first, as `Name: message`. */
  wrappedIn?: string[];
  [field: string]: unknown;
}

type ErrorLike = Error & { cause?: unknown; code?: unknown };

/** pino's own test, so anything its serializer would take is taken here. */
function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

/** The error and its causes, outermost first; bounded, as a cause chain can loop. */
function causeChain(err: ErrorLike): ErrorLike[] {
  const chain = [err];
  for (let e = err.cause; isErrorLike(e) && !chain.includes(e) && chain.length < 16; e = e.cause) chain.push(e);
  return chain;
}

/** Temporal's envelopes (ActivityFailure, ChildWorkflowFailure, WorkflowFailedError, …): they say where, their cause says what. */
function isTemporalFailure(err: ErrorLike): boolean {
  return err instanceof TemporalFailure || err instanceof WorkflowFailedError;
}

/** An AppError's code, or the code an activity put in its ApplicationFailure's `type` (activities/app-failure.ts). */
function appCode(err: ErrorLike): ErrorCode | undefined {
  const candidate = err instanceof ApplicationFailure ? err.type : err.code;
  return isErrorCode(candidate) ? candidate : undefined;
}

/**
 * pino's err serializer, with Temporal failures unwrapped. An Error serialises to `{}` as plain
 * JSON, and the error Temporal logs for a failed activity or workflow is an envelope whose cause
 * is what went wrong; the line shows that cause's message and stack, and the most specific code
 * in the chain.
 */
export function serializeError(value: unknown): unknown {
  if (!isErrorLike(value)) return value;
  const chain = causeChain(value);
  let at = 0;
  while (at < chain.length - 1 && isTemporalFailure(chain[at]!)) at++;
  const inner = chain[at]!;
  // `failure` is the raw protobuf a received failure was decoded from: bulky, and already said.
  const { failure: _proto, ...fields } = pino.stdSerializers.err(inner);
  const ownCode = typeof inner.code === 'string' ? inner.code : inner instanceof ApplicationFailure ? inner.type : undefined;
  const code = chain.map(appCode).findLast(Boolean) ?? ownCode ?? inner.name;
  const logged: LoggedError = { ...fields, code };
  if (at > 0) logged.wrappedIn = chain.slice(0, at).map((e) => `${e.name}: ${e.message}`);
  return logged;
}
