import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { AppError } from '../../errors';

/** The one error shape (API.md): `{success: false, code, error, details?}`. */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError('NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`);
      }
    } catch (err) {
      if (err instanceof AppError) {
        ctx.status = err.status;
        ctx.body = { success: false, code: err.code, error: err.message, ...(err.details && { details: err.details }) };
        if (err.code === 'RATE_LIMITED') ctx.set('Retry-After', String(ctx.state.retryAfter ?? 60));
        return;
      }
      const errorId = randomUUID();
      logger.error({ err, errorId, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { success: false, code: 'INTERNAL_ERROR', error: `Internal error; quote error id ${errorId} when reporting it`, errorId };
    }
  };
}
