import { z } from 'zod';
import { mapRequestSchema } from '../../crawl/crawl-options';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';
import { runMap } from '../run-map';

export function registerMapRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v1/map',
    tag: 'Crawling',
    summary: "List a site's URLs without scraping it",
    description: 'Sitemaps plus the links of the start page, in scope, as a short workflow `map-<id>`. 1 credit.',
    auth: true,
    body: mapRequestSchema,
    responses: {
      200: { description: 'The URLs', schema: z.object({ success: z.literal(true), links: z.array(z.string()) }) },
      402: { description: 'No credits (INSUFFICIENT_CREDITS)' },
      403: { description: 'Not a public URL (URL_BLOCKED)' },
    },
    handler: async (ctx, { body }) => {
      const { origin: _o, integration: _i, ...options } = body;
      const { links } = await runMap(deps, ctx.state.team, options);
      ctx.body = { success: true, links };
    },
  });
}
