import type { Context } from 'koa';
import { AppError } from '../../errors';
import type { BucketState } from '../../limits/request-counter';

/**
 * Answers a counted request's rate limits (see request-counter.ts): every answer carries the IETF
 * draft's `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` for the bucket closest
 * to its limit; past a limit it throws 429 RATE_LIMITED with `Retry-After`.
 */
export function enforceRateLimit(ctx: Context, buckets: BucketState[]): void {
  const limited = buckets.filter((b) => b.limit > 0);
  if (limited.length === 0) return;
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
}
