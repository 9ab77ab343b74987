import { z } from 'zod';
import { pageToDocument } from '../../firecrawl/v1/document';
import { searchOptionsOf, searchRequestSchema } from '../../search/search-options';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';
import { runSearch } from '../run-search';
import { documentSchema } from '../../firecrawl/v1/document-schema';

const searchResultSchema = documentSchema.partial({ metadata: true }).extend({
  url: z.string(),
  title: z.string(),
  description: z.string(),
  score: z.number().describe('The blend of provider rank and BM25 relevance the results are ordered by, in (0, 1].'),
});

export function registerSearchRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v1/search',
    tag: 'Search',
    summary: 'Search the web (or this deployment\'s pages) and scrape the results',
    description:
      'Runs `search-<id>`: the configured provider chain (SEARCH_PROVIDER) finds candidates, their pages are scraped in parallel when `scrapeOptions.formats` is not empty, and results are ranked by a blend of provider rank and BM25 relevance. 2 credits per result, 5 per result whose page was scraped (+4 with the json format).',
    auth: true,
    body: searchRequestSchema,
    responses: {
      200: {
        description: 'Results, best first; an empty `data` comes with `warning: "No search results found"`',
        schema: z.object({ success: z.literal(true), id: z.string().describe('The search job; its workflow is search-<id>.'), data: z.array(searchResultSchema), warning: z.string().optional() }),
      },
      402: { description: 'The balance cannot cover `limit` results (INSUFFICIENT_CREDITS)' },
      502: { description: 'Every configured search provider failed or timed out; the message names each (SEARCH_PROVIDER_ERROR)' },
    },
    handler: async (ctx, { body }) => {
      const options = searchOptionsOf(body);
      const { jobId, results, warning } = await runSearch(deps, ctx.state.team, options);
      const data = results.map(({ page, indexedPageId: _indexed, ...result }) => ({ ...result, ...(page && pageToDocument(page, options.scrapeOptions.formats)) }));
      ctx.body = { success: true, id: jobId, data, ...(warning && { warning }) };
    },
  });
}
