import { z } from 'zod';
import { defineTool } from '../tool';

export const retryFailedPagesTool = defineTool({
  name: 'retry_failed_pages',
  title: 'Retry failed crawl pages',
  description: `Scrape the failed pages of a crawl again, on the same crawl: all of them, or only \`urls\`. Answers how many are being retried; follow them with firecrawl_check_crawl_status.`,
  input: {
    id: z.string().describe('The crawl ID.'),
    urls: z.array(z.string()).optional().describe('Only these failed URLs.'),
  },
  annotations: { readOnlyHint: false, openWorldHint: true, destructiveHint: false, idempotentHint: true },
  async run({ id, urls }, { api }) {
    const { retrying } = await api.post(`/v1/crawl/${encodeURIComponent(id)}/retry`, urls ? { urls } : {});
    const next = retrying > 0 ? `call firecrawl_check_crawl_status with {"id": "${id}"} to follow them.` : 'the crawl has no failed pages to retry.';
    return { content: [{ type: 'text', text: JSON.stringify({ id, retrying, next }, null, 2) }] };
  },
});
