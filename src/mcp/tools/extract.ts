import { z } from 'zod';
import { budgetedResult } from '../result-budget';
import { defineTool } from '../tool';
import { waitFor } from '../wait-for';

export const extractTool = defineTool({
  name: 'firecrawl_extract',
  title: 'Extract structured data',
  description: `Extract structured data from up to 10 pages into one JSON object: give a JSON Schema, a prompt, or both. The result has the data, per field the pages its value came from (\`sources\`), and per field a confidence note saying where on the page the value came from. \`https://host/path/*\` reads the pages under that path. For one page, firecrawl_scrape with formats: ["json"] does the same.`,
  input: {
    urls: z.array(z.string()).optional().describe('Pages to read (at most 10).'),
    prompt: z.string().optional().describe('What to extract, in words (needs an LLM configured on the service when there is no schema).'),
    schema: z.record(z.string(), z.any()).optional().describe('JSON Schema of the object to fill.'),
    allowExternalLinks: z.boolean().optional(),
    includeSubdomains: z.boolean().optional(),
    id: z.string().optional().describe('Instead of starting a job: wait for the extract job of this id (one that was still processing).'),
  },
  notServed: { enableWebSearch: 'extract reads the pages it is given; it does not search the web' },
  annotations: { readOnlyHint: true, openWorldHint: true, destructiveHint: false },
  async run({ id: existing, ...params }, { api, config, signal }) {
    const id: string = existing ?? (await api.post('/v2/extract', { ...params, showSources: true })).id;
    const { value, ended } = await waitFor(() => api.get(`/v2/extract/${encodeURIComponent(id)}`), (s) => s.status !== 'processing', config.MCP_WAIT_SECONDS, signal);
    const { success: _success, ...job } = value;
    const result = budgetedResult({ id, ...job }, config.MCP_RESULT_MAX_CHARS, () => 'ask for fewer fields (a smaller schema) or fewer pages.');
    if (!ended) result.content.unshift({ type: 'text', text: `Extract job ${id} is still processing after ${config.MCP_WAIT_SECONDS} s; call firecrawl_extract with {"id": "${id}"} later for the result.` });
    return result;
  },
});
