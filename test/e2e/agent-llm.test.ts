import { randomUUID } from 'node:crypto';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { startLlmStack, type LlmStack } from '../helpers/llm-stack';

/** /v2/agent with an LLM: a local server speaking the OpenAI protocol scripts the model's tool choices. */
let llm: LlmStack;
let site: FixtureServer;
const WORD = `brindlecove${randomUUID().slice(0, 6)}`;
const SCHEMA = { type: 'object', properties: { sku: { type: 'string' }, price: { type: 'number' } }, required: ['sku', 'price'] };

beforeAll(async () => {
  site = await startFixtureServer(
    { '/lamp': (_req, res) => html(res, `<!doctype html><html lang="en"><head><title>${WORD} lamp</title></head><body><main><h1>The ${WORD} lamp</h1><p>SKU BL-77, sold at 120 euros.</p></main></body></html>`) },
    inject('siteHosts')[0],
  );
  llm = await startLlmStack('agent-llm', { allowPrivateHosts: inject('siteHosts') });
});
afterAll(async () => {
  await llm?.stop();
  await site?.close();
});

const reply = (body: unknown) => ({ content: JSON.stringify(body), tokens: 200 });

describe('/v2/agent with an LLM (firecrawl-js 4.42)', () => {
  it('the model searches, reads a page and answers; an answer that breaks the schema is refused and the model asked again, never returned', async () => {
    const sdk = new Firecrawl({ apiKey: inject('apiKey'), apiUrl: llm.stack.apiUrl });
    const lamp = `${site.url}/lamp`;
    llm.fake.script((_request, n) =>
      [
        reply({ action: 'search', query: `${WORD} lamp` }),
        reply({ action: 'scrape', url: lamp }),
        reply({ action: 'finish', data: { sku: 'BL-77', price: 'a hundred and twenty' } }),
        reply({ action: 'finish', data: { sku: 'BL-77', price: 120 } }),
      ][n] ?? { status: 500, message: 'no more turns scripted' },
    );
    const done = await sdk.agent({ prompt: `SKU and price of the ${WORD} lamp`, schema: SCHEMA, pollInterval: 1, timeout: 90 });
    expect(done.status, done.error).toBe('completed');
    expect(done.data).toEqual({ sku: 'BL-77', price: 120 });
    // Per field, the pages read that show its value, as the run without an LLM gives them.
    expect((done as { sources?: unknown }).sources).toEqual({ sku: [lamp], price: [lamp] });
    expect(done.model).toBe('fake-model');

    const requests = llm.fake.requests;
    expect(requests).toHaveLength(4);
    // The model saw the page it asked for, then why its first answer was refused.
    expect(JSON.stringify(requests[2]!.messages)).toContain('SKU BL-77, sold at 120 euros.');
    expect(JSON.stringify(requests[3]!.messages)).toMatch(/refused: the data does not follow the schema: \/price must be number/);

    const id = (await sdk.listAgents()).agents![0]!.id;
    const trace = await sdk.getAgentTrace(id);
    const tools = trace.events!.filter((e) => e.type === 'tool_call.finished').map((e) => (e as { toolName: string }).toolName);
    expect(tools).toEqual(['plan', 'llm', 'search', 'llm', 'scrape', 'llm', 'llm', 'extract', 'finish']);
    const extract = trace.events!.find((e) => e.type === 'tool_call.finished' && (e as { toolName: string }).toolName === 'extract') as { result: unknown };
    expect(extract.result).toEqual({ data: { sku: 'BL-77', price: 120 }, sources: { sku: [lamp], price: [lamp] } });
    const refused = trace.events!.filter((e) => e.type === 'tool_call.finished' && (e as { toolName: string }).toolName === 'llm')[2] as { result: { action: string } };
    expect(refused.result.action).toBe('invalid');
    // 4 turns at 1, the search's results at 2 each, the page at 1.
    const search = trace.events!.find((e) => e.type === 'tool_call.finished' && (e as { toolName: string }).toolName === 'search') as { result: { pages: unknown[] } };
    expect(done.creditsUsed).toBe(4 + 2 * search.result.pages.length + 1);
  });

  it('a model that never gives a valid answer ends the run failed, with no data', async () => {
    const sdk = new Firecrawl({ apiKey: inject('apiKey'), apiUrl: llm.stack.apiUrl });
    llm.fake.script(() => reply({ action: 'finish', data: { sku: 7 } }));
    const done = await sdk.agent({ prompt: 'anything', urls: [`${site.url}/lamp`], schema: SCHEMA, pollInterval: 1, timeout: 90 });
    expect(done.status).toBe('failed');
    expect(done.error).toContain('no valid answer within 8 turns');
    expect(done.data ?? null).toBeNull();
  });
});
