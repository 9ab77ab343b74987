import Router from '@koa/router';
import Koa from 'koa';
import type { ApiDeps } from './api-deps';
import { requireApiKey } from './middleware/authenticate';
import { errorHandler } from './middleware/error-handler';
import { jsonBody } from './middleware/json-body';
import { requestLogger } from './middleware/request-logger';
import { RouteTable } from './route';
import { registerBatchRoutes } from './routes/batch';
import { registerCrawlRoutes } from './routes/crawl';
import { registerDocsRoutes } from './routes/docs';
import { registerExtractRoutes } from './routes/extract';
import { registerHealthRoutes } from './routes/health';
import { registerMapRoutes } from './routes/map';
import { registerSearchRoutes } from './routes/search';
import { registerScrapeRoutes } from './routes/scrape';
import { registerScreenshotRoutes } from './routes/screenshot';
import { registerTeamRoutes } from './routes/team';
import { registerMcpRoute } from '../mcp/http-route';
import { registerV2Routes } from './v2/register-v2-routes';
import { httpMetrics } from '../metrics/http-metrics';
import { requestSpans } from '../telemetry/request-spans';

/** The Koa application: middleware in the order a request meets it, then the route table. */
export function createApp(deps: ApiDeps): { app: Koa; routes: RouteTable } {
  const app = new Koa({ proxy: false });
  const router = new Router();
  const routes = new RouteTable(router, [requireApiKey(deps.db, { perKey: deps.config.RATE_LIMIT_PER_MINUTE, perTeam: deps.config.TEAM_RATE_LIMIT_PER_MINUTE })]);
  registerHealthRoutes(routes, deps);
  registerScrapeRoutes(routes, deps);
  registerCrawlRoutes(routes, deps);
  registerBatchRoutes(routes, deps);
  registerMapRoutes(routes, deps);
  registerSearchRoutes(routes, deps);
  registerScreenshotRoutes(routes, deps);
  registerExtractRoutes(routes, deps);
  registerTeamRoutes(routes, deps);
  registerMcpRoute(routes, deps);
  registerV2Routes(routes, deps);
  registerDocsRoutes(routes, deps);

  // Outermost: the span and the counted status are those of the answer the client got.
  app.use(requestSpans());
  app.use(httpMetrics());
  app.use(requestLogger(deps.logger));
  app.use(errorHandler(deps.logger));
  app.use(jsonBody(deps.config.MAX_BODY_BYTES));
  app.use(router.routes());
  // Not `throw: true`: thrown, the router sets no `Allow`; errorHandler gives these answers our shape.
  app.use(router.allowedMethods());
  return { app, routes };
}
