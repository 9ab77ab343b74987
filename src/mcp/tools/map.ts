import { z } from 'zod';
import { listResult } from '../list-result';
import { defineTool } from '../tool';

interface MapLink {
  url: string;
  title?: string;
  description?: string;
}

export const mapTool = defineTool({
  name: 'firecrawl_map',
  title: 'Map a site',
  description: `List the URLs of one website (its sitemaps and the links of its start page) without fetching each page's content; each link is {url, title, description}, named from pages this service already stored. Use it to find a page whose URL is unknown, or to see a site's inventory; \`search\` keeps and ranks the URLs that match a term. Read a page with firecrawl_scrape; collect many with firecrawl_crawl.`,
  input: {
    url: z.string().describe('The site to map.'),
    search: z.string().optional().describe('Keep only URLs relevant to this text, best first.'),
    sitemap: z.enum(['include', 'skip', 'only']).optional().describe('include (default): sitemaps and links; skip: links only; only: sitemap URLs only.'),
    includeSubdomains: z.boolean().optional().describe('Also list subdomains (default true).'),
    limit: z.number().int().positive().optional().describe('Most URLs to return (default 5000).'),
    ignoreQueryParameters: z.boolean().optional().describe('List URLs that differ only in their query once (default true).'),
    offset: z.number().int().min(0).optional().describe('Continue a cut result from this URL on (the truncation note gives it).'),
  },
  annotations: { readOnlyHint: true, openWorldHint: true, destructiveHint: false },
  async run({ offset = 0, ...params }, { api, config }) {
    const { links } = await api.post<{ links: MapLink[] }>('/v2/map', params);
    return listResult(
      {
        head: { total: links.length },
        lists: { links: links.slice(offset) },
        offset,
        more: false,
        continueAt: (next) => `call firecrawl_map again with the same arguments and "offset": ${next}.`,
        readItem: 'read the page with firecrawl_scrape.',
      },
      config.MCP_RESULT_MAX_CHARS,
    );
  },
});
