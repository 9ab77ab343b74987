import { z } from 'zod';
import { crawlStatusResult } from '../crawl-status';
import { defineTool } from '../tool';

export const checkCrawlStatusTool = defineTool({
  name: 'firecrawl_check_crawl_status',
  title: 'Crawl status',
  description: `Read the status, progress and collected pages of a crawl by its ID (from firecrawl_crawl). Pages come in order; \`skip\` reads on from a position, as the result says when there are more.`,
  input: {
    id: z.string().describe('The crawl ID.'),
    skip: z.number().int().min(0).optional().describe('Pages to skip: continue from where the previous result stopped.'),
  },
  annotations: { readOnlyHint: true, openWorldHint: false, destructiveHint: false },
  async run({ id, skip = 0 }, { api, config }) {
    return crawlStatusResult(api, id, skip, config.MCP_RESULT_MAX_CHARS);
  },
});
