import { z } from 'zod';
import { budgetedResult } from '../result-budget';
import { SCRAPE_NOT_SERVED, scrapeParamsShape, toV2ScrapeOptions } from '../scrape-params';
import { defineTool } from '../tool';

/** The formats a continued read (`contentOffset`) pages through. */
const CONTENT_FIELDS = ['markdown', 'text', 'html', 'rawHtml'] as const;

/** The least age of stored copy a continued read accepts, so it reads the copy it continues rather than fetching anew. */
const CONTINUATION_MAX_AGE_MS = 3_600_000;

export const scrapeTool = defineTool({
  name: 'firecrawl_scrape',
  title: 'Scrape a page',
  description: `Scrape one URL and return its content: markdown by default, or HTML, links, images, a screenshot URL, a summary, a comparison with your previous copy (changeTracking), JSON matching a supplied schema (formats: ["json"] with jsonOptions), or the answer to a question about the page (formats: ["query"] with queryOptions.prompt: the page's own passage, or an LLM's answer where the service has one). Use it when the request names a page; use firecrawl_search to find pages and firecrawl_map to list a site's URLs.

A stored copy up to two days old may answer; set maxAge: 0 for a live fetch. A long page is cut to the result budget, and the result then says so first, with the contentOffset that continues it.`,
  input: {
    url: z.string().describe('The page to scrape (http or https).'),
    ...scrapeParamsShape,
    timeout: z.number().int().positive().optional().describe('Milliseconds the scrape may take (default 30000).'),
    contentOffset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Continue a cut result: return the markdown/text/html from this character on (the truncation note gives it). Reads the stored copy of the page.'),
  },
  notServed: SCRAPE_NOT_SERVED,
  annotations: { readOnlyHint: true, openWorldHint: true, destructiveHint: false },
  async run({ url, contentOffset = 0, timeout, ...params }, { api, config }) {
    const options = toV2ScrapeOptions(params);
    if (contentOffset > 0 && params.maxAge !== undefined) options.maxAge = Math.max(params.maxAge, CONTINUATION_MAX_AGE_MS);
    const { data } = await api.post('/v2/scrape', { url, ...options, ...(timeout !== undefined && { timeout }) });
    for (const field of CONTENT_FIELDS) if (typeof data[field] === 'string') data[field] = data[field].slice(contentOffset);
    return budgetedResult(
      data,
      config.MCP_RESULT_MAX_CHARS,
      (cuts) => {
        const content = cuts.filter((c) => (CONTENT_FIELDS as readonly string[]).includes(c.path));
        const steps: string[] = [];
        if (content.length > 0) {
          const next = Math.min(...content.map((c) => c.from + c.kept));
          steps.push(`call firecrawl_scrape again with the same arguments and "contentOffset": ${next}.`);
        }
        if (content.length < cuts.length) steps.push('for the other cut fields, ask for fewer formats (e.g. only "markdown"), or narrow the page with includeTags.');
        return steps.join(' Then, ');
      },
      { readFrom: { fields: CONTENT_FIELDS, offset: contentOffset } },
    );
  },
});
