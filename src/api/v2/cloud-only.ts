import { AppError } from '../../errors';
import { errorSchema } from '../schemas/error-schema';
import type { RouteSpec, RouteTable } from '../route';

/**
 * Endpoints of Firecrawl's v2 API that only its cloud offers, as the SDK (firecrawl-js 4.42)
 * calls them: each answers a documented 501 naming itself, rather than a 404 that reads like a
 * wrong base URL.
 */
const CLOUD_ONLY: { method: RouteSpec['method']; path: string; feature: string }[] = [
  { method: 'get', path: '/v2/agent/:id/snapshots/:snapshotId', feature: 'agent snapshots and threads' },
  { method: 'get', path: '/v2/agent/threads/:threadId', feature: 'agent snapshots and threads' },
  { method: 'post', path: '/v2/browser', feature: 'browser sessions' },
  { method: 'get', path: '/v2/browser', feature: 'browser sessions' },
  { method: 'delete', path: '/v2/browser/:id', feature: 'browser sessions' },
  { method: 'post', path: '/v2/browser/:id/execute', feature: 'browser sessions' },
  { method: 'post', path: '/v2/scrape/:id/interact', feature: 'interacting with a scrape’s browser' },
  { method: 'delete', path: '/v2/scrape/:id/interact', feature: 'interacting with a scrape’s browser' },
  { method: 'get', path: '/v2/search/research/papers', feature: 'the research paper index' },
  { method: 'get', path: '/v2/search/research/papers/:id', feature: 'the research paper index' },
  { method: 'get', path: '/v2/search/research/papers/:id/similar', feature: 'the research paper index' },
  { method: 'get', path: '/v2/search/research/github', feature: 'the research GitHub index' },
  { method: 'post', path: '/v2/search/developer', feature: 'the developer-source index' },
  { method: 'post', path: '/v2/feedback', feature: 'result feedback' },
  { method: 'post', path: '/v2/search/:id/feedback', feature: 'result feedback' },
];

export function registerV2CloudOnlyRoutes(routes: RouteTable): void {
  for (const { method, path, feature } of CLOUD_ONLY) {
    const endpoint = `${method.toUpperCase()} ${path}`;
    routes.add({
      method,
      path,
      tag: 'Firecrawl v2 (cloud only)',
      summary: `Not available: ${feature}`,
      description: `Firecrawl's cloud offers ${feature}; this self-hosted service does not. Always 501 NOT_IMPLEMENTED.`,
      auth: true,
      responses: { 501: { description: `NOT_IMPLEMENTED, naming ${endpoint}`, schema: errorSchema } },
      handler: async () => {
        throw new AppError('NOT_IMPLEMENTED', `${endpoint} is a Firecrawl cloud feature (${feature}) that this self-hosted service does not implement.`);
      },
    });
  }
}
