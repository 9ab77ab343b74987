import { z } from 'zod';
import { crawlStatusResult } from '../crawl-status';
import { scrapeOptionsParams, toV2ScrapeOptions } from '../scrape-params';
import { defineTool } from '../tool';
import { waitFor } from '../wait-for';

export const crawlTool = defineTool({
  name: 'firecrawl_crawl',
  title: 'Crawl a site',
  description: `Start a multi-page crawl at a URL, wait for it (up to a bound), and return its status and the pages collected. Scope it with includePaths/excludePaths (regexes on the path), maxDiscoveryDepth, limit, subdomain and external-link switches, sitemap handling and delay, or describe it in words with prompt (needs an LLM configured on the service). Crawls can be large: use a conservative limit. A crawl that has not finished within the wait keeps going; read it with firecrawl_check_crawl_status.`,
  input: {
    url: z.string().describe('Where the crawl starts.'),
    prompt: z.string().optional().describe('What to crawl, in words: an LLM chooses the options not given.'),
    includePaths: z.array(z.string()).optional(),
    excludePaths: z.array(z.string()).optional(),
    maxDiscoveryDepth: z.number().int().min(0).optional().describe('Link hops from the start URL (default 10).'),
    sitemap: z.enum(['include', 'skip', 'only']).optional().describe('include (default): also start from the sitemaps; skip: links only; only: the sitemap URLs, following no links.'),
    limit: z.number().int().positive().optional().describe('Most pages to scrape.'),
    allowExternalLinks: z.boolean().optional(),
    allowSubdomains: z.boolean().optional(),
    crawlEntireDomain: z.boolean().optional().describe("Also follow links outside the start URL's path."),
    delay: z.number().min(0).optional().describe('Seconds between requests to one host.'),
    maxConcurrency: z.number().int().positive().optional(),
    deduplicateSimilarURLs: z.boolean().optional().describe('URLs are always normalised (www., trailing slash, fragment) before de-duplication.'),
    ignoreQueryParameters: z.boolean().optional(),
    webhook: z.string().optional().describe('URL that receives crawl events.'),
    webhookHeaders: z.record(z.string(), z.string()).optional(),
    scrapeOptions: scrapeOptionsParams.optional().describe('How each page is scraped (summary and changeTracking are for firecrawl_scrape only).'),
  },
  annotations: { readOnlyHint: false, openWorldHint: true, destructiveHint: false },
  async run({ webhook, webhookHeaders, scrapeOptions, ...params }, { api, config, signal }) {
    const { id } = await api.post('/v2/crawl', {
      ...params,
      ...(webhook && { webhook: webhookHeaders ? { url: webhook, headers: webhookHeaders } : webhook }),
      ...(scrapeOptions && { scrapeOptions: toV2ScrapeOptions(scrapeOptions, 'scrapeOptions.') }),
    });
    const { ended } = await waitFor(() => api.get(`/v2/crawl/${id}?limit=1`), (s) => s.status !== 'scraping', config.MCP_WAIT_SECONDS, signal);
    const notes = ended ? [] : [`Crawl ${id} is still running after ${config.MCP_WAIT_SECONDS} s; below is what it has so far. Call firecrawl_check_crawl_status with {"id": "${id}"} later for the rest.`];
    return crawlStatusResult(api, id, 0, config.MCP_RESULT_MAX_CHARS, notes);
  },
});
