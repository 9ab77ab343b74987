import type { Middleware } from 'koa';
import { AppError } from '../../errors';

/**
 * A fixed one-minute window per API key, kept in this process. Behind several API replicas each
 * enforces its own share; that is loose but never blocks a legitimate client.
 */
export function rateLimit(perMinute: number): Middleware {
  const windows = new Map<string, { start: number; count: number }>();
  return async (ctx, next) => {
    if (perMinute <= 0) return next();
    const key: string = ctx.state.team.keyPrefix;
    const now = Date.now();
    let w = windows.get(key);
    if (!w || now - w.start >= 60_000) {
      if (windows.size > 10_000) windows.clear();
      w = { start: now, count: 0 };
      windows.set(key, w);
    }
    if (++w.count > perMinute) {
      const retryAfterSeconds = Math.ceil((w.start + 60_000 - now) / 1000);
      throw new AppError('RATE_LIMITED', `More than ${perMinute} requests in a minute for this key; retry after ${retryAfterSeconds}s`, undefined, { retryAfterSeconds });
    }
    return next();
  };
}
