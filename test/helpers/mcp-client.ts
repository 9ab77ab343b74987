import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT } from '../../src/config/paths';

/** An MCP client connected to a server; `stderr` is what a child-process server logged. */
export interface Connected {
  client: Client;
  stderr: () => string;
  close(): Promise<void>;
}

async function connect(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Connected> {
  const client = new Client({ name: 'wcs-test', version: '1.0.0' });
  let stderr = '';
  if (transport instanceof StdioClientTransport) transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** Spawns an MCP server over stdio (`command args...`) with `env` added to ours, and connects to it. */
export function connectStdio(command: string, args: string[], env: Record<string, string>): Promise<Connected> {
  return connect(new StdioClientTransport({ command, args, cwd: ROOT, env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' }));
}

/** `wcs mcp` as an MCP client launches it: the real bin, calling the API at `apiUrl` with `key`. */
export function connectWcsMcp(apiUrl: string, key: string, env: Record<string, string> = {}): Promise<Connected> {
  return connectStdio(process.execPath, [path.join(ROOT, 'src', 'cli', 'bin.cjs'), 'mcp'], { WCS_API_URL: apiUrl, WCS_API_KEY: key, ...env });
}

/** The API's `/mcp` over Streamable HTTP with `Authorization: Bearer <key>`. */
export function connectHttpMcp(apiUrl: string, key: string): Promise<Connected> {
  return connect(new StreamableHTTPClientTransport(new URL(`${apiUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
}

/** Calls a tool; the result as the model receives it. */
export async function callTool(c: Connected, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await c.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
}

/** Every text block of a result, in order. */
export function texts(result: CallToolResult): string[] {
  return result.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));
}

/** The first text block of a result that is a JSON object, parsed. */
export function jsonOf(result: CallToolResult): any {
  for (const text of texts(result)) {
    try {
      const value = JSON.parse(text);
      if (value && typeof value === 'object') return value;
    } catch {
      // a note, not the JSON
    }
  }
  throw new Error(`no JSON in the result: ${JSON.stringify(result).slice(0, 500)}`);
}
