import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { McpConfig } from '../config/env';
import type { ApiClient } from './api-client';
import type { NotServed } from './not-served';

/** What a tool runs with: the API as the caller, the MCP settings, and the call's abort signal. */
export interface ToolContext {
  /** The API, called with the MCP caller's key. */
  api: ApiClient;
  /** The result budget and how long to wait for jobs. */
  config: McpConfig;
  /** Aborted when the client cancels the call; waits stop early. */
  signal: AbortSignal;
}

/** One MCP tool: its name, documentation and input schema, and what it does. */
export interface ToolSpec<S extends z.ZodRawShape = z.ZodRawShape> {
  /** The name a model calls it by: firecrawl-mcp's where that server has the tool, so prompts carry over. */
  name: string;
  /** Short human-readable name shown by MCP clients. */
  title: string;
  /** What the model reads to decide when and how to call it. */
  description: string;
  /** Arguments, as a zod shape; the MCP SDK validates calls against it (strictly) and lists it as JSON Schema. */
  input: S;
  /** firecrawl-mcp's arguments of this tool that are not served, and why: refused with that reason. */
  notServed?: NotServed;
  /** Hints for clients: read-only, open-world, destructive. */
  annotations: ToolAnnotations;
  run(args: z.infer<z.ZodObject<S>>, ctx: ToolContext): Promise<CallToolResult>;
}

/** Keeps the argument types of `run` tied to `input`. */
export function defineTool<S extends z.ZodRawShape>(spec: ToolSpec<S>): ToolSpec<S> {
  return spec;
}
