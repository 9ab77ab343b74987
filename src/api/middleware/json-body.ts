import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { AppError } from '../../errors';

/**
 * Reads a JSON body for POST/PUT/PATCH into `ctx.request.body`. The body is parsed as JSON
 * whatever its Content-Type says (`curl -d` sends form encoding) except multipart uploads,
 * which stay unread for their route; an empty body is `{}`.
 */
export function jsonBody(limitBytes: number): Middleware {
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) return next();
    // File uploads (POST /v2/parse) are read, with their own size limit, by the route.
    if (ctx.is('multipart/form-data')) return next();
    let raw: string;
    try {
      raw = await getRawBody(ctx.req, { limit: limitBytes, encoding: 'utf8', length: ctx.get('content-length') || undefined });
    } catch (err) {
      if ((err as { type?: string }).type === 'entity.too.large') {
        throw new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${limitBytes} bytes`);
      }
      throw new AppError('BAD_REQUEST', `Could not read the request body: ${(err as Error).message}`);
    }
    if (raw.trim() === '') {
      (ctx.request as { body?: unknown }).body = {};
    } else {
      try {
        (ctx.request as { body?: unknown }).body = JSON.parse(raw);
      } catch (err) {
        throw new AppError('BAD_REQUEST_INVALID_JSON', `Request body is not valid JSON: ${(err as Error).message}`);
      }
    }
    return next();
  };
}
