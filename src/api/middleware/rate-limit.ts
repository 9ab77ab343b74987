import type { Middleware } from 'koa';
import type { AuthenticatedTeam } from '../../accounts/api-keys';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { countRequest, type BucketState, type RequestLimits } from '../../limits/request-counter';

/**
 * Request limits per API key and per team, counted in Postgres (see request-counter.ts) so that
 * several API replicas share them. Every answer carries the IETF draft's `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` for the bucket closest to its limit; past a
 * limit the answer is 429 RATE_LIMITED with `Retry-After`.
 */
export function rateLimit(db: Db, defaults: RequestLimits): Middleware {
  return async (ctx, next) => {
    const team: AuthenticatedTeam = ctx.state.team;
    const limited = (await countRequest(db, { keyPrefix: team.keyPrefix, teamId: team.teamId }, defaults)).filter((b) => b.limit > 0);
    if (limited.length === 0) return next();
    const remaining = (b: BucketState) => Math.max(0, b.limit - b.hits);
    const tightest = limited.reduce((a, b) => (remaining(b) < remaining(a) ? b : a));
    ctx.set('RateLimit-Limit', String(tightest.limit));
    ctx.set('RateLimit-Remaining', String(remaining(tightest)));
    ctx.set('RateLimit-Reset', String(tightest.resetSeconds));
    const over = limited.find((b) => b.hits > b.limit);
    if (over) {
      const whose = over.bucket === 'key' ? 'this key' : "this key's team";
      throw new AppError('RATE_LIMITED', `More than ${over.limit} requests in a minute for ${whose}; retry after ${over.resetSeconds}s`, undefined, {
        retryAfterSeconds: over.resetSeconds,
      });
    }
    return next();
  };
}
