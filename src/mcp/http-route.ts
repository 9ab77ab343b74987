import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Context } from 'koa';
import type { ApiDeps } from '../api/api-deps';
import { bearerKey } from '../api/middleware/authenticate';
import type { RouteTable } from '../api/route';
import { ApiClient } from './api-client';
import { createMcpServer } from './create-server';

/** This API as reached by the request at hand: the tools call it back over the same socket address. */
function selfUrl(ctx: Context): string {
  const { localAddress, localPort } = ctx.req.socket;
  const host = localAddress?.includes(':') ? `[${localAddress}]` : localAddress;
  return `http://${host}:${localPort}`;
}

/**
 * `POST /mcp`: the MCP tools over Streamable HTTP, stateless (a server and transport per
 * request), behind the same bearer key, rate limit and error shape as every route. The tools
 * call the API with the caller's key. GET (a server-sent event stream) is not offered: 405.
 */
export function registerMcpRoute(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/mcp',
    tag: 'MCP',
    summary: 'MCP over Streamable HTTP',
    description:
      'JSON-RPC messages of the Model Context Protocol (Streamable HTTP transport, stateless, JSON responses). Tools: firecrawl_scrape, firecrawl_map, firecrawl_search, firecrawl_crawl, firecrawl_check_crawl_status, firecrawl_extract, firecrawl_credit_usage, screenshot, crawl_graph, retry_failed_pages.',
    auth: true,
    responses: {
      200: { description: 'The JSON-RPC response' },
      401: { description: 'No valid API key (UNAUTHORIZED)' },
    },
    handler: async (ctx) => {
      const server = createMcpServer(new ApiClient(selfUrl(ctx), bearerKey(ctx)!), deps.config);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      ctx.res.once('close', () => void server.close());
      await server.connect(transport);
      // The transport writes the answer itself.
      ctx.respond = false;
      await transport.handleRequest(ctx.req, ctx.res, (ctx.request as { body?: unknown }).body);
    },
  });
}
