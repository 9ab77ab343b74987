import { z } from 'zod';
import { listResult } from '../list-result';
import { scrapeParamsShape, toScrapeOptions } from '../scrape-params';
import { defineTool } from '../tool';

export const searchTool = defineTool({
  name: 'firecrawl_search',
  title: 'Search the web',
  description: `Search the web and return ranked results, each a title, URL and description, in \`web\`. Use firecrawl_scrape on a result URL when the description is not enough, or pass scrapeOptions to get each result's page content in the same call.`,
  input: {
    query: z.string().min(1).describe('What to search for.'),
    limit: z.number().int().min(1).max(100).optional().describe('Most results (default 5).'),
    tbs: z.string().optional().describe('Time filter: qdr:h, qdr:d, qdr:w, qdr:m, qdr:y.'),
    location: z.string().optional().describe('Where to search from, e.g. "Berlin,Germany", where the provider supports it.'),
    scrapeOptions: z.object(scrapeParamsShape).optional().describe("Scrape each result's page too (formats default to none)."),
    offset: z.number().int().min(0).optional().describe('Continue a cut result from this result on (the truncation note gives it).'),
  },
  annotations: { readOnlyHint: true, openWorldHint: true, destructiveHint: false },
  async run({ offset = 0, scrapeOptions, ...params }, { api, config }) {
    const { data, warning } = await api.post('/v1/search', { ...params, ...(scrapeOptions && { scrapeOptions: toScrapeOptions(scrapeOptions) }) });
    return listResult(
      {
        head: warning ? { warning } : {},
        key: 'web',
        items: (data as unknown[]).slice(offset),
        offset,
        more: false,
        continueAt: (next) => `call firecrawl_search again with the same arguments and "offset": ${next}.`,
      },
      config.MCP_RESULT_MAX_CHARS,
    );
  },
});
