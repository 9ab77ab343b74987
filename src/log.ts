import pino, { type Logger } from 'pino';

/** JSON lines on stdout, one logger per process, named for the process's role. */
export function createLogger(name: string, level: string): Logger {
  return pino({ name, level, base: { pid: process.pid, service: name }, timestamp: pino.stdTimeFunctions.isoTime });
}

export type { Logger };
