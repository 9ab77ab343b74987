import type { ToolSpec } from '../tool';
import { agentStatusTool, agentTool } from './agent';
import { checkCrawlStatusTool } from './check-crawl-status';
import { crawlTool } from './crawl';
import { crawlGraphTool } from './crawl-graph';
import { creditUsageTool } from './credit-usage';
import { extractTool } from './extract';
import { mapTool } from './map';
import { MONITOR_TOOLS } from './monitors';
import { retryFailedPagesTool } from './retry-failed-pages';
import { scrapeTool } from './scrape';
import { screenshotTool } from './screenshot';
import { searchTool } from './search';

/** Every tool the MCP server offers: firecrawl-mcp's names first, then ours. */
export const TOOLS = [
  scrapeTool,
  mapTool,
  searchTool,
  crawlTool,
  checkCrawlStatusTool,
  extractTool,
  agentTool,
  agentStatusTool,
  creditUsageTool,
  screenshotTool,
  crawlGraphTool,
  retryFailedPagesTool,
  ...MONITOR_TOOLS,
] as unknown as ToolSpec[];
