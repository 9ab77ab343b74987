import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import { matchedRoute } from '../metrics/http-metrics';

const tracer = trace.getTracer('web-context-service-api');

/**
 * One server span per request, active while it is handled, so the workflow it starts (traced by
 * Temporal's client interceptor) is its child. Named by route pattern once routing has run.
 * A no-op span when tracing is off.
 */
export function requestSpans(): Middleware {
  return (ctx, next) =>
    tracer.startActiveSpan(`${ctx.method} ${ctx.path}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.path': ctx.path } }, async (span) => {
      try {
        await next();
      } finally {
        const route = matchedRoute(ctx);
        if (route) span.updateName(`${ctx.method} ${route}`);
        span.setAttribute('http.response.status_code', ctx.status);
        if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    });
}
