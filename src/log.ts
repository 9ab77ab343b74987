import pino, { type Logger, type LoggerOptions } from 'pino';
import { serializeError } from './log-errors';

/**
 * Errors are logged under `err` (ours) or `error` (the Temporal SDK's, bridged by
 * temporal/runtime-logger.ts); both keys go through the error serializer.
 */
export function loggerOptions(name: string, level: string): LoggerOptions {
  return {
    name,
    level,
    base: { pid: process.pid, service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: serializeError, error: serializeError },
  };
}

/** JSON lines on stdout, one logger per process, named for the process's role. */
export function createLogger(name: string, level: string): Logger {
  return pino(loggerOptions(name, level));
}

export type { Logger };
