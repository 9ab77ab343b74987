import type { JsonSchema } from '../json-schema/json-schema';
import type { ChatMessage } from '../extract/llm/llm-client';

/** Model turns one run may take: each is a search, a page or the answer. */
export const AGENT_LLM_TURNS = 8;
/** What one model turn costs, beside the search or page it asks for (docs/api.md). */
export const AGENT_LLM_TURN_CREDITS = 1;
/** The code and message of a run stopped by its time budget (the workflow's check, or a turn cut off). */
export const TIME_BUDGET_REACHED = 'AGENT_TIME_BUDGET_REACHED';
export const timeBudgetMessage = (maxSeconds: number) => `The time budget (AGENT_LLM_MAX_SECONDS = ${maxSeconds}) was reached: the model's loop may take ${maxSeconds} s from the run's start; the run kept what it had found`;
export const TOKEN_BUDGET_REACHED = 'AGENT_TOKEN_BUDGET_REACHED';
export const tokenBudgetMessage = (maxTokens: number, used: number) => `The token budget (AGENT_LLM_MAX_TOKENS = ${maxTokens}) was reached: the model's turns used ${used} tokens; the run kept what it had found`;

/** Characters of a page's markdown the model is shown. */
const PAGE_CHARS = 6_000;

/** What the model chose this turn; `invalid` when its reply was not a valid choice (it sees why next turn). */
export type AgentDecision =
  | { action: 'search'; query: string }
  | { action: 'scrape'; url: string; urlKey?: string }
  | { action: 'finish'; data: unknown }
  | { action: 'invalid'; error: string };

/** The reply format asked of the model. */
export const DECISION_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: ['search', 'scrape', 'finish'] },
    query: { type: 'string', description: 'with search: what to search the web for' },
    url: { type: 'string', description: 'with scrape: the page to read' },
    data: { description: 'with finish: the answer, following the schema' },
  },
  required: ['action'],
};

/** What the model learnt so far, in the run's order. */
export type Observation = { kind: 'search'; query: string; urls: string[] } | { kind: 'page'; url: string; markdown: string } | { kind: 'decision'; decision: AgentDecision };

export function agentMessages(prompt: string, schema: JsonSchema | undefined, observations: readonly Observation[]): ChatMessage[] {
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content:
        'You gather data from the web to answer a request. Each turn, answer one JSON object: {"action": "search", "query": ...} to search the web, {"action": "scrape", "url": ...} to read a page, or {"action": "finish", "data": ...} with the answer' +
        (schema ? ` following this JSON Schema: ${JSON.stringify(schema)}` : '') +
        '. Use only what the pages say.',
    },
    { role: 'user', content: prompt },
  ];
  for (const o of observations) {
    if (o.kind === 'decision') {
      messages.push({ role: 'assistant', content: JSON.stringify(o.decision.action === 'invalid' ? { error: o.decision.error } : o.decision) });
      if (o.decision.action === 'invalid') messages.push({ role: 'user', content: `That reply was refused: ${o.decision.error}. Answer again.` });
    } else if (o.kind === 'search') {
      messages.push({ role: 'user', content: `Search results for "${o.query}":\n${o.urls.join('\n') || '(none)'}` });
    } else {
      messages.push({ role: 'user', content: `The page ${o.url}:\n"""\n${o.markdown.slice(0, PAGE_CHARS)}\n"""` });
    }
  }
  return messages;
}

/** The model's reply as a decision; anything else is `invalid`, with why. */
export function parseDecision(content: string): AgentDecision {
  let reply: Record<string, unknown>;
  try {
    reply = JSON.parse(content) as Record<string, unknown>;
  } catch {
    return { action: 'invalid', error: 'the reply was not JSON' };
  }
  if (reply.action === 'search' && typeof reply.query === 'string' && reply.query.trim()) return { action: 'search', query: reply.query };
  if (reply.action === 'scrape' && typeof reply.url === 'string' && /^https?:\/\//.test(reply.url)) return { action: 'scrape', url: reply.url };
  if (reply.action === 'finish' && reply.data !== undefined) return { action: 'finish', data: reply.data };
  return { action: 'invalid', error: `"action" must be search (with a query), scrape (with an http(s) url) or finish (with data); got ${content.slice(0, 200)}` };
}
