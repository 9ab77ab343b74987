import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { AppError } from '../../errors';
import { dependencyOutage } from '../../startup/dependency-outage';

/**
 * The router's own answers, which come without a body: no route (404), a path that does not take
 * this method (405), or a method no route takes (501). allowedMethods() has already set `Allow`.
 */
function routingError(ctx: Context): AppError | undefined {
  switch (ctx.status) {
    case 404:
      return new AppError('NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`);
    case 405:
      return new AppError('METHOD_NOT_ALLOWED', `${ctx.path} does not take ${ctx.method}; it takes ${ctx.response.get('Allow')}`);
    case 501:
      return new AppError('NOT_IMPLEMENTED', `No route takes the ${ctx.method} method`);
    default:
      return undefined;
  }
}

/** The one error shape (API.md): `{success: false, code, error, details?}`. */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      const routing = ctx.body === undefined ? routingError(ctx) : undefined;
      if (routing) throw routing;
    } catch (thrown) {
      const outage = thrown instanceof AppError ? undefined : dependencyOutage(thrown);
      if (outage) logger.warn({ err: thrown, method: ctx.method, path: ctx.path }, 'dependency unavailable');
      const err = outage ?? thrown;
      if (err instanceof AppError) {
        ctx.status = err.status;
        ctx.body = { success: false, code: err.code, error: err.message, ...(err.details && { details: err.details }) };
        if (err.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(err.retryAfterSeconds));
        return;
      }
      const errorId = randomUUID();
      logger.error({ err, errorId, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { success: false, code: 'INTERNAL_ERROR', error: `Internal error; quote error id ${errorId} when reporting it`, errorId };
    }
  };
}
