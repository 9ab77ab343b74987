import { z } from 'zod';
import { listResult } from '../list-result';
import { defineTool } from '../tool';

export const crawlGraphTool = defineTool({
  name: 'crawl_graph',
  title: 'Crawl link graph',
  description: `The link graph of a crawl: \`nodes\` (each page's url, depth, status, HTTP status code) and \`edges\` (which page linked to which). Use it to see a site's structure or how a page was reached.`,
  input: {
    id: z.string().describe('The crawl ID.'),
    offset: z.number().int().min(0).optional().describe('Continue a cut result: nodes and edges from this position on (the truncation note gives it).'),
  },
  annotations: { readOnlyHint: true, openWorldHint: false, destructiveHint: false },
  async run({ id, offset = 0 }, { api, config }) {
    const { nodes, edges } = await api.get<{ nodes: unknown[]; edges: unknown[] }>(`/v1/crawl/${encodeURIComponent(id)}/graph`);
    return listResult(
      {
        head: { id, totalNodes: nodes.length, totalEdges: edges.length },
        lists: { nodes: nodes.slice(offset), edges: edges.slice(offset) },
        offset,
        more: false,
        continueAt: (next) => `call crawl_graph with {"id": "${id}", "offset": ${next}}.`,
        readItem: 'those are very long URLs, shortened; nothing else is missing.',
      },
      config.MCP_RESULT_MAX_CHARS,
    );
  },
});
