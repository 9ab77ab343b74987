import Firecrawl from '@mendable/firecrawl-js';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ledger } from '../../src/db/schema';
import { testDatabase } from '../helpers/db';
import { startLlmStack, type LlmStack } from '../helpers/llm-stack';

/**
 * /v2/agent's model loop stops at its token and time budgets (AGENT_LLM_MAX_TOKENS,
 * AGENT_LLM_MAX_SECONDS), failed with an error naming the budget, keeping its steps. A local
 * server speaking the OpenAI protocol plays the model.
 */
let llm: LlmStack;
const MAX_TOKENS = 1_000;
const MAX_SECONDS = 12;

beforeAll(async () => {
  llm = await startLlmStack('agent-llm-budgets', { allowPrivateHosts: inject('siteHosts'), env: { AGENT_LLM_MAX_TOKENS: String(MAX_TOKENS), AGENT_LLM_MAX_SECONDS: String(MAX_SECONDS) } });
});
afterAll(async () => {
  await llm?.stop();
});

const sdk = () => new Firecrawl({ apiKey: inject('apiKey'), apiUrl: llm.stack.apiUrl });
const search = (query: string) => JSON.stringify({ action: 'search', query });

/** The run's model turns in its trace, and what the ledger charged it. */
async function turnsAndCharges(id: string) {
  const trace = await sdk().getAgentTrace(id);
  const turns = trace.events!.filter((e) => e.type === 'tool_call.finished' && (e as { toolName: string }).toolName === 'llm');
  const charges = await testDatabase().db.select().from(ledger).where(like(ledger.idempotencyKey, `agent:${id}:%`));
  return { trace, turns, charges };
}

describe('/v2/agent with an LLM: token and time budgets', () => {
  it('stops when the turns’ usage.total_tokens reach AGENT_LLM_MAX_TOKENS, failed, naming the budget', async () => {
    llm.fake.script(() => ({ content: search('copper kettles'), tokens: 600 }));
    const done = await sdk().agent({ prompt: 'prices of copper kettles', pollInterval: 1, timeout: 60 });
    expect(done.status).toBe('failed');
    expect(done.error).toContain(`The token budget (AGENT_LLM_MAX_TOKENS = ${MAX_TOKENS}) was reached: the model's turns used 1200 tokens`);
    // Two turns of 600: the third is not asked for.
    expect(llm.fake.requests).toHaveLength(2);
    const id = (await sdk().listAgents()).agents![0]!.id;
    const { trace, turns, charges } = await turnsAndCharges(id);
    expect(turns).toHaveLength(2);
    expect(done.creditsUsed).toBe(-charges.reduce((sum, c) => sum + c.amount, 0));
    expect(trace.events!.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'failed', error: { message: expect.stringContaining('AGENT_LLM_MAX_TOKENS') } });
  });

  it('stops at AGENT_LLM_MAX_SECONDS, cutting off a turn still thinking, which is neither recorded nor charged', async () => {
    // Each turn thinks 5 s: two fit in 12 s, the third is cut off.
    llm.fake.script(() => ({ content: search('enamel mugs'), tokens: 10, delayMs: 5_000 }));
    const done = await sdk().agent({ prompt: 'enamel mugs and their prices', pollInterval: 1, timeout: 90 });
    expect(done.status).toBe('failed');
    expect(done.error).toContain(`The time budget (AGENT_LLM_MAX_SECONDS = ${MAX_SECONDS}) was reached`);
    const id = (await sdk().listAgents()).agents![0]!.id;
    const { trace, turns, charges } = await turnsAndCharges(id);
    // Two turns fit on a quiet machine; whatever fitted, the last turn asked for was cut off.
    expect(turns.length).toBeGreaterThanOrEqual(1);
    expect(llm.fake.requests).toHaveLength(turns.length + 1);
    expect(charges.filter((c) => c.idempotencyKey.startsWith(`agent:${id}:llm:`))).toHaveLength(turns.length);
    // The run ended at its budget, not when the cut-off turn would have answered (5 s after it was asked, at 15 s or later).
    const at = (type: string) => Date.parse(trace.events!.find((e) => e.type === type)!.occurredAt);
    expect(at('run.finished') - at('run.started')).toBeLessThan(MAX_SECONDS * 1000 + 2_500);
    expect(done.creditsUsed).toBe(-charges.reduce((sum, c) => sum + c.amount, 0));
  });
});
