import { z } from 'zod';
import { clientTags } from '../../scrape/scrape-options';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';
import { runMap } from '../run-map';
import { linkDetails } from './link-details';

/** Body of POST /v2/map (Firecrawl v2's MapOptions; its defaults). */
export const v2MapRequestSchema = z.strictObject({
  url: z.string().min(1).max(8192).describe('The site to map.'),
  search: z.string().max(500).optional().describe('Keep only URLs that contain a word of this text, those with the most words first.'),
  sitemap: z.enum(['skip', 'include', 'only']).default('include').describe('"include": sitemaps and the start page\'s links; "skip": links only; "only": sitemap URLs only.'),
  includeSubdomains: z.boolean().default(true).describe('Also list URLs on subdomains of the site (v2 default true).'),
  ignoreQueryParameters: z.boolean().default(true).describe('List URLs that differ only in their query string once, without the query (v2 default true).'),
  limit: z.number().int().min(1).max(30_000).default(5_000),
  timeout: z.number().int().min(1_000).max(300_000).optional().describe('Milliseconds the map may take (default 60000).'),
  ...clientTags,
});

const mapLinkSchema = z.object({ url: z.string(), title: z.string().optional(), description: z.string().optional() });

/** Each URL once, without its query string (its first occurrence's place). */
function withoutQueries(links: readonly string[]): string[] {
  const out = new Set<string>();
  for (const link of links) {
    const url = new URL(link);
    url.search = '';
    out.add(url.href);
  }
  return [...out];
}

export function registerV2MapRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v2/map',
    tag: 'Firecrawl v2',
    summary: "List a site's URLs without scraping it (v2)",
    description:
      'The /v1/map workflow with v2\'s shape: links are objects, with the title and description of pages this deployment has already scraped (none are fetched to name them). 1 credit.',
    auth: true,
    body: v2MapRequestSchema,
    responses: {
      200: { description: 'The URLs', schema: z.object({ success: z.literal(true), id: z.string(), links: z.array(mapLinkSchema) }) },
      402: { description: 'No credits (INSUFFICIENT_CREDITS)' },
      403: { description: 'Not a public URL (URL_BLOCKED)' },
    },
    handler: async (ctx, { body }) => {
      const { jobId, links } = await runMap(deps, ctx.state.team, {
        url: body.url,
        ...(body.search && { search: body.search }),
        ignoreSitemap: body.sitemap === 'skip',
        sitemapOnly: body.sitemap === 'only',
        includeSubdomains: body.includeSubdomains,
        limit: body.limit,
        ...(body.timeout && { timeout: body.timeout }),
      });
      const urls = body.ignoreQueryParameters ? withoutQueries(links) : links;
      const details = await linkDetails(deps.db, urls);
      ctx.body = { success: true, id: jobId, links: urls.map((url) => ({ url, ...details.get(url) })) };
    },
  });
}
