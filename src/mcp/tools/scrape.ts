import { z } from 'zod';
import { budgetedResult } from '../result-budget';
import { scrapeParamsShape, toScrapeOptions } from '../scrape-params';
import { defineTool } from '../tool';

/** The formats a continued read (`contentOffset`) pages through. */
const CONTENT_FIELDS = ['markdown', 'text', 'html', 'rawHtml'] as const;

/** How old a stored copy a continued read accepts, so it reads the page it continues. */
const CONTINUATION_MAX_AGE_MS = 3_600_000;

export const scrapeTool = defineTool({
  name: 'firecrawl_scrape',
  title: 'Scrape a page',
  description: `Scrape one URL and return its content: markdown by default, or text, HTML, links, a screenshot URL, or JSON matching a supplied schema (formats: ["json"] with jsonOptions). Use it when the request names a page; use firecrawl_search to find pages and firecrawl_map to list a site's URLs.

A long page is cut to the result budget, and the result then says so first, with the contentOffset that continues it.`,
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
  annotations: { readOnlyHint: true, openWorldHint: true, destructiveHint: false },
  async run({ url, contentOffset = 0, timeout, ...params }, { api, config }) {
    const options = toScrapeOptions(params);
    if (contentOffset > 0 && params.maxAge === undefined) options.maxAge = CONTINUATION_MAX_AGE_MS;
    const { data } = await api.post('/v1/scrape', { url, ...options, ...(timeout !== undefined && { timeout }) });
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
