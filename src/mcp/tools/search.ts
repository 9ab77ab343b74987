import { z } from 'zod';
import { listResult } from '../list-result';
import { servedType, type NotServed } from '../not-served';
import { scrapeOptionsParams, toV2ScrapeOptions } from '../scrape-params';
import { defineTool } from '../tool';

const ALEXANDRIA = "Alexandria, Firecrawl cloud's provider catalogue, is not available";

const SEARCH_NOT_SERVED: NotServed = {
  filter: 'it is a Firecrawl cloud search filter',
  includeDomains: 'domain filters are not offered',
  excludeDomains: 'domain filters are not offered',
  enterprise: 'enterprise search modes are a Firecrawl cloud feature',
  toolDetail: ALEXANDRIA,
  domainTools: ALEXANDRIA,
};

export const searchTool = defineTool({
  name: 'firecrawl_search',
  title: 'Search the web',
  description: `Search web and news sources and return ranked results per source: \`web\` (title, URL, description) and \`news\` (title, URL, snippet, date). Use firecrawl_scrape on a result URL when the description is not enough, or pass scrapeOptions to get each result's page content in the same call.`,
  input: {
    query: z.string().min(1).describe('What to search for.'),
    limit: z.number().int().min(1).max(100).optional().describe('Most results per source (default 5).'),
    sources: z
      .array(servedType(['web', 'news', 'images'], { alexandria: ALEXANDRIA, exchange: ALEXANDRIA }))
      .optional()
      .describe('Sources, as names or {type} (default ["web"]). images: only where a configured provider offers it (else empty, with a warning).'),
    categories: z
      .array(servedType(['github', 'research', 'pdf'], { developer: "Firecrawl's developer index is its own cloud corpus; github is the nearest" }))
      .optional()
      .describe('Keep only web results of these kinds: github, research (academic sites), pdf.'),
    tbs: z.string().optional().describe('Time filter: qdr:h, qdr:d, qdr:w, qdr:m, qdr:y.'),
    location: z.string().optional().describe('Where to search from, e.g. "Berlin,Germany", where the provider supports it.'),
    highlights: z.boolean().optional().describe("Query-relevant excerpts of each result's page as web `description` and news `snippet`, where the page was scraped or is in the local index (default); false keeps the search provider's snippets."),
    scrapeOptions: scrapeOptionsParams.optional().describe("Scrape each result's page too (formats default to none; summary and changeTracking are not available here)."),
    offset: z.number().int().min(0).optional().describe('Continue a cut result from this result on, in every source (the truncation note gives it).'),
  },
  notServed: SEARCH_NOT_SERVED,
  annotations: { readOnlyHint: true, openWorldHint: true, destructiveHint: false },
  async run({ offset = 0, scrapeOptions, ...params }, { api, config }) {
    const { data, warning } = await api.post<{ data: Record<string, unknown[]>; warning?: string }>('/v2/search', {
      ...params,
      ...(scrapeOptions && { scrapeOptions: toV2ScrapeOptions(scrapeOptions, 'scrapeOptions.') }),
    });
    return listResult(
      {
        head: warning ? { warning } : {},
        lists: Object.fromEntries(Object.entries(data).map(([source, results]) => [source, results.slice(offset)])),
        offset,
        more: false,
        continueAt: (next) => `call firecrawl_search again with the same arguments and "offset": ${next}.`,
        readItem: "fetch one result's URL with firecrawl_scrape to read it whole.",
      },
      config.MCP_RESULT_MAX_CHARS,
    );
  },
});
