import type { Middleware } from 'koa';
import { authenticate } from '../../accounts/api-keys';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';

/** Requires `Authorization: Bearer <key>` of a live key; puts the team on `ctx.state.team`. */
export function requireApiKey(db: Db): Middleware {
  return async (ctx, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
    if (!match) throw new AppError('UNAUTHORIZED', 'Missing API key: send Authorization: Bearer <key>');
    const team = await authenticate(db, match[1]!);
    if (!team) throw new AppError('UNAUTHORIZED', 'Unknown or revoked API key');
    ctx.state.team = team;
    return next();
  };
}
