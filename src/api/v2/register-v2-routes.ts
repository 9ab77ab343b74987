import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';
import { registerV2AgentRoutes } from './agent';
import { registerV2CloudOnlyRoutes } from './cloud-only';
import { registerV2ExtractRoutes } from './extract';
import { registerV2MapRoutes } from './map';
import { registerV2MonitorRoutes } from './monitor-routes';
import { registerV2ParseRoutes } from './parse';
import { registerV2ScrapeRoutes } from './scrape';
import { registerV2SearchRoutes } from './search';
import { registerV2TeamRoutes } from './team';
import { registerV2BatchRoutes } from './batch-routes';
import { registerV2CrawlRoutes } from './crawl-routes';

/**
 * Every /v2 route (Firecrawl's current API), beside /v1 and over the same workflows, tables and
 * ledger. One place, so the v2 surface reads as a list.
 */
export function registerV2Routes(routes: RouteTable, deps: ApiDeps): void {
  registerV2ScrapeRoutes(routes, deps);
  registerV2MapRoutes(routes, deps);
  registerV2SearchRoutes(routes, deps);
  registerV2ExtractRoutes(routes, deps);
  registerV2ParseRoutes(routes, deps);
  registerV2TeamRoutes(routes, deps);

  // ── crawl and batch scrape (engineer B registers here) ──
  registerV2CrawlRoutes(routes, deps);
  registerV2BatchRoutes(routes, deps);

  // ── end crawl and batch scrape ──

  registerV2MonitorRoutes(routes, deps);
  registerV2AgentRoutes(routes, deps);

  registerV2CloudOnlyRoutes(routes);
}
