import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpConfig } from '../config/env';
import { AppError } from '../errors';
import packageJson from '../../package.json';
import type { ApiClient } from './api-client';
import { strictParams } from './not-served';
import { TOOLS } from './tools';

const INSTRUCTIONS = `web-context-service turns public web pages into context: firecrawl_scrape reads one page, firecrawl_search finds pages, firecrawl_map lists a site's URLs, firecrawl_crawl collects many pages (firecrawl_check_crawl_status reads them), firecrawl_extract fills a JSON Schema from pages, screenshot captures a page. Results are cut to a character budget; a cut result says so first, and names the call that gets the rest. A firecrawl-mcp parameter this service does not serve is refused with the reason: leave it out.`;

/** What the model sees when a call fails: the API's error code and message, and each detail. */
function errorResult(err: unknown): CallToolResult {
  const text =
    err instanceof AppError
      ? [`${err.code}: ${err.message}`, ...(Array.isArray(err.details) ? err.details : []).map((d) => `- ${d.path}: ${d.message}`)].join('\n')
      : `INTERNAL_ERROR: ${err instanceof Error ? err.message : String(err)}`;
  return { isError: true, content: [{ type: 'text', text }] };
}

/** An MCP server whose tools call the API at `api` as its key's team. */
export function createMcpServer(api: ApiClient, config: McpConfig): McpServer {
  const server = new McpServer({ name: 'web-context-service', version: packageJson.version }, { instructions: INSTRUCTIONS });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: strictParams(tool.input, tool.notServed), annotations: { title: tool.title, ...tool.annotations } },
      async (args: Record<string, unknown>, extra) => {
        try {
          return await tool.run(args, { api, config, signal: extra.signal });
        } catch (err) {
          return errorResult(err);
        }
      },
    );
  }
  return server;
}
