import { z } from 'zod';
import { budgetedResult } from '../result-budget';
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
    const value = { id, totalNodes: nodes.length, totalEdges: edges.length, ...(offset > 0 && { offset }), nodes: nodes.slice(offset), edges: edges.slice(offset) };
    return budgetedResult(value, config.MCP_RESULT_MAX_CHARS, (cuts) => {
      // Both lists continue from one position: the least kept of a list that was cut.
      const kept = cuts.filter((c) => c.path === 'nodes' || c.path === 'edges').map((c) => c.kept);
      if (kept.length === 0) return 'nothing more: only very long URLs were shortened.';
      return `call crawl_graph with {"id": "${id}", "offset": ${offset + Math.min(...kept)}}.`;
    });
  },
});
