import type { Context, Middleware } from 'koa';
import { Counter, Histogram } from 'prom-client';
import { METRIC_PREFIX, metrics } from './registry';

const requests = new Counter({
  name: `${METRIC_PREFIX}http_requests_total`,
  help: 'API requests answered, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metrics],
});

const duration = new Histogram({
  name: `${METRIC_PREFIX}http_request_duration_seconds`,
  help: 'API request latency, by method and route pattern.',
  labelNames: ['method', 'route'] as const,
  // Scrapes wait on a page: from milliseconds (a cache hit) to the default 30 s timeout and past it.
  buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [metrics],
});

/** The route pattern @koa/router matched (`/v1/crawl/:id`), once routing has run. */
export function matchedRoute(ctx: Context): string | undefined {
  const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
  return route === undefined ? undefined : String(route);
}

/**
 * Counts and times every request by its route pattern (`/v1/crawl/:id`, never the id itself,
 * which would make a series per job); requests no route matched count as `unmatched`.
 * Mount it outermost, so error answers are counted with the status the client got.
 */
export function httpMetrics(): Middleware {
  return async (ctx, next) => {
    const stop = duration.startTimer();
    try {
      await next();
    } finally {
      const labels = { method: ctx.method, route: matchedRoute(ctx) ?? 'unmatched' };
      stop(labels);
      requests.inc({ ...labels, status: String(ctx.status) });
    }
  };
}
