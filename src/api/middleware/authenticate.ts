import type { Context, Middleware } from 'koa';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { authenticateRequest, type RequestLimits } from '../../limits/request-counter';
import { enforceRateLimit } from './rate-limit';

/** The key of an `Authorization: Bearer <key>` header, if the request has one. */
export function bearerKey(ctx: Context): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'))?.[1];
}

/**
 * Requires `Authorization: Bearer <key>` of a live key within its request limits (per key and
 * per team; 0 means none, each overridable per team); puts the team on `ctx.state.team`.
 */
export function requireApiKey(db: Db, limits: RequestLimits): Middleware {
  return async (ctx, next) => {
    const key = bearerKey(ctx);
    if (!key) throw new AppError('UNAUTHORIZED', 'Missing API key: send Authorization: Bearer <key>');
    const keyed = await authenticateRequest(db, key, limits);
    if (!keyed) throw new AppError('UNAUTHORIZED', 'Unknown or revoked API key');
    ctx.state.team = keyed.team;
    enforceRateLimit(ctx, keyed.buckets);
    return next();
  };
}
