import { pageCredits, PRICES } from '../credits/pricing';
import type { JsonSchema } from '../json-schema/json-schema';
import type { ScrapeOptions } from '../scrape/scrape-options';

/** Search results an agent run without URLs reads: the best few, each a page to scrape. */
export const AGENT_SEARCH_RESULTS = 3;

/** What `agent-<jobId>` is given: ids and the request, never pages. Pure, so workflows may import it. */
export interface AgentRunInput {
  jobId: string;
  teamId: string;
  prompt: string;
  /** The request's URLs (already through the public-URL gate); empty means search for the prompt. */
  urls: { url: string; urlKey: string }[];
  schema?: JsonSchema;
  /** The run's hard ceiling, in credits; absent means the team's balance is the only limit. */
  maxCredits?: number;
  /** How each page is scraped: markdown, plus the json format with the schema when one is given. */
  scrapeOptions: ScrapeOptions;
  browserQueue: string;
  /** The API has an LLM configured: the model chooses each step (a bounded tool loop), within these budgets. */
  llm?: AgentLlmBudget;
  /** Without an LLM: also read pages the given ones link to on their site (the request asks for a list). */
  followLinks?: boolean;
}

/** What the model's loop may use (AGENT_LLM_MAX_TOKENS, AGENT_LLM_MAX_SECONDS), fixed when the run starts. */
export interface AgentLlmBudget {
  maxTokens: number;
  maxSeconds: number;
}

/** One step of a run as the trace shows it: a tool call with its parameters and result. */
export interface AgentStep {
  /** Order within the run, given by the workflow. */
  seq: number;
  tool: 'plan' | 'llm' | 'search' | 'scrape' | 'links' | 'extract' | 'finish';
  parameters: Record<string, unknown>;
  result: unknown;
  startedAt: string;
  finishedAt: string;
}

/**
 * The most a step may cost, checked against `maxCredits` before it runs: a page as a scrape with
 * its formats charges it (a browser render counted, since whether one is needed is only known
 * after), a search as a search without scraping charges its results.
 */
export function stepCeiling(tool: 'search' | 'scrape', withSchema: boolean): number {
  if (tool === 'search') return PRICES.searchResult * AGENT_SEARCH_RESULTS;
  return pageCredits({ renderer: 'browser', screenshot: false, json: withSchema });
}

/** The error a run stopped by its ceiling ends with. */
export function ceilingMessage(maxCredits: number, spent: number, next: string, cost: number): string {
  return `maxCredits (${maxCredits}) reached: ${spent} credit(s) spent, and ${next} may cost up to ${cost} more; the run kept what it had found`;
}
