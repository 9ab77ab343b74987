import type { Middleware } from 'koa';
import type { Logger } from 'pino';

/** Probes poll these; their lines would drown everything else. */
const QUIET_PATHS = new Set(['/healthz', '/readyz']);

/** One JSON log line per request, with its status and duration. */
export function requestLogger(logger: Logger): Middleware {
  return async (ctx, next) => {
    if (QUIET_PATHS.has(ctx.path)) return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = Math.round(performance.now() - started);
      logger.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms, team: ctx.state.team?.teamName }, 'request');
    }
  };
}
