import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { cliApiKey, cliApiUrl } from '../cli/runtime-info';
import { loadMcpConfig } from '../config/env';
import { ApiClient } from './api-client';
import { createMcpServer } from './create-server';

/**
 * `wcs mcp`: the MCP server over stdin/stdout for a local MCP client, calling the API at
 * WCS_API_URL with WCS_API_KEY (else what `npm start` recorded). Resolves when the client
 * closes stdin. Nothing else may write to stdout: it carries the protocol.
 */
export async function serveMcpOverStdio(): Promise<void> {
  const server = createMcpServer(new ApiClient(cliApiUrl(), cliApiKey()), loadMcpConfig());
  const closed = new Promise<void>((resolve) => process.stdin.once('end', resolve));
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close();
}
