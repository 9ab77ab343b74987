import Koa from 'koa';
import type { Logger } from 'pino';
import { AppError } from '../errors';
import { OUTAGE_RETRY_AFTER_SECONDS } from '../startup/dependency-outage';
import { errorHandler } from './middleware/error-handler';

/**
 * What the API answers while it waits for Postgres at start (to come up, and to be migrated):
 * `/healthz` says the process is alive, so a liveness probe does not restart it for an outage;
 * everything else is 503 SERVICE_UNAVAILABLE with Retry-After, as during an outage later on.
 */
export function startingApp(logger: Logger): Koa {
  const app = new Koa({ proxy: false });
  app.use(errorHandler(logger));
  app.use(async (ctx) => {
    if (ctx.method === 'GET' && ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
      return;
    }
    throw new AppError('SERVICE_UNAVAILABLE', `The API is starting: waiting for Postgres; retry in ${OUTAGE_RETRY_AFTER_SECONDS} s`, undefined, {
      retryAfterSeconds: OUTAGE_RETRY_AFTER_SECONDS,
    });
  });
  return app;
}
