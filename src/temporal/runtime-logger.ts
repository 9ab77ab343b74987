import { DefaultLogger, type LogLevel } from '@temporalio/worker';
import type { Logger } from 'pino';

const LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * Routes the Temporal SDK's own logs (worker and core) into our JSON log. The SDK's meta is the
 * merge object as is: a failed activity or workflow comes as its Error under `error`, which the
 * logger's serializer (log-errors.ts) turns into code, message and stack.
 */
export function temporalSdkLogger(logger: Logger): DefaultLogger {
  const child = logger.child({ component: 'temporal' });
  return new DefaultLogger('WARN', ({ level, message, meta }) => child[LEVELS[level]](meta ?? {}, message));
}

/**
 * The SDK core's own (native) log lines, a poll retried while Temporal is down say, forwarded to
 * the logger above from WARN up; by default core prints them to the console as plain text,
 * outside our JSON log.
 */
export const CORE_LOG_FORWARDING = { logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} } } as const;
