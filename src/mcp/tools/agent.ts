import { z } from 'zod';
import { budgetedResult } from '../result-budget';
import { defineTool } from '../tool';
import { waitFor } from '../wait-for';

const tooBig = () => 'ask for fewer fields (a smaller schema) or fewer pages.';

export const agentTool = defineTool({
  name: 'firecrawl_agent',
  title: 'Gather structured data from the web',
  description: `Runs an agent (POST /v2/agent): the given \`urls\`, or without them the best pages a web search for the prompt finds, each read into \`schema\` by the structured-data engine, merged into one object with per field the pages its value came from (\`sources\`). Without a schema, the pages' main content. \`maxCredits\` is a hard ceiling. Waits for the result; a run still going is read later with firecrawl_agent_status.`,
  input: {
    prompt: z.string().describe('What to find; without urls, also the search query.'),
    urls: z.array(z.string()).optional().describe('Pages to read (at most 10).'),
    schema: z.record(z.string(), z.any()).optional().describe('JSON Schema of the object to fill.'),
    maxCredits: z.number().int().optional().describe('Most credits the run may spend.'),
  },
  notServed: { threadId: 'agent threads are not served here', exchange: 'the tool exchange is not served here' },
  annotations: { readOnlyHint: true, openWorldHint: true, destructiveHint: false },
  async run(params, { api, config, signal }) {
    const { id } = await api.post('/v2/agent', params);
    const { value, ended } = await waitFor(() => api.get(`/v2/agent/${encodeURIComponent(id)}`), (s) => s.status !== 'processing', config.MCP_WAIT_SECONDS, signal);
    const { success: _success, ...run } = value;
    const result = budgetedResult({ id, ...run }, config.MCP_RESULT_MAX_CHARS, tooBig);
    if (!ended) result.content.unshift({ type: 'text', text: `Agent run ${id} is still processing after ${config.MCP_WAIT_SECONDS} s; call firecrawl_agent_status with {"id": "${id}"} later for the result.` });
    return result;
  },
});

export const agentStatusTool = defineTool({
  name: 'firecrawl_agent_status',
  title: 'Read an agent run',
  description: 'The status, data, sources and credits of an agent run started with firecrawl_agent.',
  input: { id: z.string().describe('The run’s id.') },
  annotations: { readOnlyHint: true, openWorldHint: false, destructiveHint: false },
  async run({ id }, { api, config }) {
    const { success: _success, ...run } = await api.get(`/v2/agent/${encodeURIComponent(id)}`);
    return budgetedResult({ id, ...run }, config.MCP_RESULT_MAX_CHARS, tooBig);
  },
});
