import type { Context, Middleware } from 'koa';
import { authenticate } from '../../accounts/api-keys';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';

/** The key of an `Authorization: Bearer <key>` header, if the request has one. */
export function bearerKey(ctx: Context): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'))?.[1];
}

/** Requires `Authorization: Bearer <key>` of a live key; puts the team on `ctx.state.team`. */
export function requireApiKey(db: Db): Middleware {
  return async (ctx, next) => {
    const key = bearerKey(ctx);
    if (!key) throw new AppError('UNAUTHORIZED', 'Missing API key: send Authorization: Bearer <key>');
    const team = await authenticate(db, key);
    if (!team) throw new AppError('UNAUTHORIZED', 'Unknown or revoked API key');
    ctx.state.team = team;
    return next();
  };
}
