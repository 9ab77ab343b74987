import { FirecrawlAppV1 as FirecrawlApp } from '@mendable/firecrawl-js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ledger } from '../../src/db/schema';
import { EXTRACT_FIXTURES as F, LONG_PAGE } from '../fixtures/extract-pages';
import { api, fixture } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { noteFor, runExtract } from '../helpers/extract-job';
import { answer, pageTextOf, type ChatRequest, type FakeOpenAi } from '../helpers/fake-openai';
import { startLlmStack, type LlmStack } from '../helpers/llm-stack';
import type { Stack } from '../helpers/stack';

/**
 * The LLM engine is configured per worker, so these tests run their own API and worker (on
 * their own task queues) pointed at a local server that speaks the OpenAI protocol.
 */
let llm: LlmStack;
let fake: FakeOpenAi;
let stack: Stack;
const on = () => ({ baseUrl: stack.apiUrl });

beforeAll(async () => {
  llm = await startLlmStack('llm-test', { allowPrivateHosts: [new URL(inject('fixtureUrl')).host], env: { LLM_CONTEXT_TOKENS: '1500' } });
  ({ fake, stack } = llm);
});
afterAll(async () => {
  await llm?.stop();
});

const shopSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' }, inStock: { type: 'boolean' } },
  required: ['name', 'price', 'currency', 'inStock'],
};
const shopData = { name: F.llmShop.name, price: F.llmShop.price, currency: F.llmShop.currency, inStock: true };
const shopEvidence = { name: F.llmShop.name, price: 'Price: $64.50 (USD)', currency: '$64.50 (USD)', inStock: F.llmShop.stockSentence };

async function chargesOf(jobId: string): Promise<number[]> {
  const rows = await testDatabase().db.select({ amount: ledger.amount }).from(ledger).where(eq(ledger.jobId, jobId));
  return rows.map((r) => r.amount);
}

const userMessage = (r: ChatRequest) => r.messages.find((m) => m.role === 'user')!.content;

describe('LLM engine', () => {
  it('sends the page text with the schema as the response format and keeps a valid answer', async () => {
    fake.script(() => answer(shopData, shopEvidence, 3_500));
    const { start, result } = await runExtract({ urls: [fixture('/extract/llm-shop')], schema: shopSchema }, on());
    expect(result.status, result.error).toBe('completed');
    expect(result.data).toEqual(shopData);

    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.model).toBe('fake-model');
    expect(request.temperature).toBe(0);
    expect(request.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('never guess or invent') });
    expect(userMessage(request)).toContain('Gooseneck spout, 0.9 litre, brushed copper finish.');
    expect(userMessage(request)).toContain(F.llmShop.stockSentence);
    expect(request.response_format?.type).toBe('json_schema');
    const sent = request.response_format!.json_schema!.schema;
    expect(sent.required).toEqual(['data', 'evidence']);
    expect(Object.keys(sent.properties.data.properties)).toEqual(['name', 'price', 'currency', 'inStock']);
    expect(sent.properties.data.properties.price).toEqual({ anyOf: [{ type: 'number' }, { type: 'null' }] });

    for (const field of ['price', 'currency', 'inStock']) {
      expect(noteFor(result, field)).toMatchObject({ source: 'llm', confidence: 0.9, evidence: shopEvidence[field as keyof typeof shopEvidence] });
    }
    // The page <title> gave the name too: the engines agree, which raises confidence.
    expect(noteFor(result, 'name').source).toBe('llm+meta');
    expect(noteFor(result, 'name').confidence).toBeGreaterThan(0.9);

    // 5 for the page, +2 for 3,500 tokens (1,500 beyond the first 2,000, started thousands).
    expect(result).toMatchObject({ tokensUsed: 3_500, creditsUsed: 7 });
    expect(await chargesOf(start.body.id)).toEqual([-7]);
  });

  it('sends an invalid answer back once with the validation errors and keeps the repaired one', async () => {
    fake.script((_r, n) => (n === 0 ? answer({ ...shopData, price: 'sixty-four fifty' }, shopEvidence) : answer(shopData, shopEvidence)));
    const { result } = await runExtract({ urls: [fixture('/extract/llm-shop')], schema: shopSchema }, on());
    expect(result.status).toBe('completed');
    expect(result.data).toEqual(shopData);
    expect(fake.requests).toHaveLength(2);
    const repair = fake.requests[1]!.messages;
    expect(repair.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(repair[2]!.content).toContain('sixty-four fifty');
    expect(repair[3]!.content).toContain('price must be number');
    expect(result.notes.some((n) => n.message?.includes('failed validation'))).toBe(false);
    expect(result.tokensUsed).toBe(2_000);
  });

  it('reports a second invalid answer in the notes and leaves the failing field null', async () => {
    fake.script(() => answer({ ...shopData, price: 'sixty-four fifty' }, shopEvidence));
    const { result } = await runExtract({ urls: [fixture('/extract/llm-shop')], schema: shopSchema }, on());
    expect(result.status).toBe('completed');
    expect(fake.requests).toHaveLength(2);
    expect(result.data).toEqual({ ...shopData, price: null });
    expect(noteFor(result, '').message).toMatch(/failed validation twice .*price must be number/);
    expect(noteFor(result, 'price')).toMatchObject({ confidence: 0, source: 'schema' });
  });

  it('gives low confidence to a value whose evidence the page does not contain', async () => {
    fake.script(() => answer(shopData, { ...shopEvidence, inStock: 'Ships today from our Berlin warehouse' }));
    const { result } = await runExtract({ urls: [fixture('/extract/llm-shop')], schema: shopSchema }, on());
    expect(result.data).toEqual(shopData);
    expect(noteFor(result, 'inStock')).toMatchObject({ source: 'llm', evidence: 'Ships today from our Berlin warehouse', message: expect.stringContaining('does not occur in the page') });
    expect(noteFor(result, 'inStock').confidence).toBeLessThanOrEqual(0.3);
    expect(noteFor(result, 'price').confidence).toBe(0.9);
  });

  it('fails the job with a clear error when the LLM server keeps failing, and charges nothing', async () => {
    fake.script(() => ({ status: 500, message: 'model overloaded' }));
    const { start, result } = await runExtract({ urls: [fixture('/extract/llm-shop')], schema: shopSchema }, on());
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/^the LLM at http:\/\/127\.0\.0\.1:\d+\/v1 \(model fake-model\) answered 500: .*model overloaded/);
    expect(result.data).toBeNull();
    // Each attempt of the activity asked once.
    expect(fake.requests).toHaveLength(3);
    expect(await chargesOf(start.body.id)).toEqual([]);
  });

  it('recovers when a retried activity succeeds, charging the tokens of the answer it kept', async () => {
    fake.script((_r, n) => (n === 0 ? { status: 503, message: 'warming up' } : answer(shopData, shopEvidence, 2_600)));
    const { start, result } = await runExtract({ urls: [fixture('/extract/llm-shop')], schema: shopSchema }, on());
    expect(result.status).toBe('completed');
    expect(fake.requests).toHaveLength(2);
    expect(result).toMatchObject({ tokensUsed: 2_600, creditsUsed: 6 });
    expect(await chargesOf(start.body.id)).toEqual([-6]);
  });

  it('splits a long page into chunks that fit the context and merges the answers', async () => {
    fake.script((request) => {
      const text = pageTextOf(request);
      return answer(
        { firstKeeper: text.includes('Ezekiel Marsh') ? 'Ezekiel Marsh' : null, automatedYear: text.includes('1987') ? 1987 : null },
        { ...(text.includes('Ezekiel Marsh') && { firstKeeper: LONG_PAGE.opening }), ...(text.includes('1987') && { automatedYear: LONG_PAGE.closing }) },
        600,
      );
    });
    const schema = { type: 'object', properties: { firstKeeper: { type: 'string' }, automatedYear: { type: 'integer' } } };
    const { result } = await runExtract({ urls: [fixture('/extract/long')], schema }, on());
    expect(result.status, result.error).toBe('completed');
    expect(result.data).toEqual({ firstKeeper: 'Ezekiel Marsh', automatedYear: 1987 });

    const n = fake.requests.length;
    expect(n).toBeGreaterThanOrEqual(2);
    fake.requests.forEach((r, i) => expect(userMessage(r)).toContain(`(part ${i + 1} of ${n})`));
    const texts = fake.requests.map(pageTextOf);
    for (const entry of [LONG_PAGE.opening, ...LONG_PAGE.filler, LONG_PAGE.closing]) {
      expect(texts.some((t) => t.includes(entry))).toBe(true);
    }
    expect(texts.filter((t) => t.includes(LONG_PAGE.opening))).toHaveLength(1);
    expect(noteFor(result, 'firstKeeper')).toMatchObject({ source: 'llm', confidence: 0.9, evidence: LONG_PAGE.opening });
    expect(result.notes.find((note) => note.path === '' && note.message?.includes(`${n} chunks`))).toBeDefined();
    expect(result.tokensUsed).toBe(600 * n);
  });

  it('infers a schema for a prompt-only request and returns it in the notes', async () => {
    const inferred = { type: 'object', properties: { kettleName: { type: 'string' }, priceUsd: { type: 'number' } }, required: ['kettleName', 'priceUsd'] };
    fake.script((_request, n) =>
      n === 0 ? { content: JSON.stringify(inferred), tokens: 700 } : answer({ kettleName: F.llmShop.name, priceUsd: 64.5 }, { kettleName: F.llmShop.name, priceUsd: '$64.50' }, 1_500),
    );
    const prompt = 'The kettle name and its price in dollars';
    const { result } = await runExtract({ urls: [fixture('/extract/llm-shop')], prompt }, on());
    expect(result.status, result.error).toBe('completed');
    expect(result.data).toEqual({ kettleName: F.llmShop.name, priceUsd: 64.5 });
    expect(Object.keys(result.data!)).toEqual(['kettleName', 'priceUsd']);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]!.response_format).toEqual({ type: 'json_object' });
    expect(userMessage(fake.requests[0]!)).toContain(prompt);
    expect(userMessage(fake.requests[0]!)).toContain('Gooseneck spout');
    expect(Object.keys(fake.requests[1]!.response_format!.json_schema!.schema.properties.data.properties)).toEqual(['kettleName', 'priceUsd']);
    expect(userMessage(fake.requests[1]!)).toContain(`Request: ${prompt}`);
    expect(result.notes.find((n) => n.schema)).toMatchObject({ path: '', source: 'schema', evidence: prompt, schema: inferred });
    expect(result.tokensUsed).toBe(2_200);
    expect(result.creditsUsed).toBe(6);
  });
});

describe('LLM and structured data together', () => {
  const schema = { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' } } };

  it('gives the structured data to the model as hints; agreement raises confidence', async () => {
    fake.script(() => answer({ name: F.product.name, price: F.product.price, currency: 'USD' }, { name: F.product.name, price: '$129.95', currency: '$129.95' }));
    const { result } = await runExtract({ urls: [fixture('/extract/product-jsonld')], schema }, on());
    expect(result.data).toEqual({ name: F.product.name, price: F.product.price, currency: 'USD' });
    expect(userMessage(fake.requests[0]!)).toContain(`"price":${F.product.price}`);
    expect(userMessage(fake.requests[0]!)).toContain("Values found in the page's markup");
    for (const field of ['name', 'price', 'currency']) {
      const note = noteFor(result, field);
      expect(note.source).toBe('llm+json-ld');
      expect(note.confidence).toBeGreaterThan(0.95);
    }
  });

  it('keeps the surer value when the engines disagree, and says so', async () => {
    fake.script(() => answer({ name: F.product.name, price: 99, currency: 'USD' }, { name: F.product.name, price: 'Now only $99', currency: 'USD' }));
    const { result } = await runExtract({ urls: [fixture('/extract/product-jsonld')], schema }, on());
    expect(result.data!.price).toBe(F.product.price);
    const note = noteFor(result, 'price');
    expect(note.source).toBe('json-ld');
    expect(note.confidence).toBeLessThan(0.95);
    expect(note.message).toContain('the engines disagree: llm said 99');
  });

  it('works on a page without structured data with the same call', async () => {
    fake.script(() => answer(shopData, shopEvidence));
    const app = new FirecrawlApp({ apiKey: inject('apiKey'), apiUrl: stack.apiUrl });
    const result = await app.extract([fixture('/extract/llm-shop')], { schema: shopSchema });
    expect(result).toMatchObject({ success: true, data: shopData });
  });
});

describe('the json format on scrape with an LLM', () => {
  it('fills jsonOptions with both engines and charges 1 + 4 whatever the tokens', async () => {
    fake.script(() => answer(shopData, shopEvidence, 9_000));
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/extract/llm-shop'), formats: ['json'], jsonOptions: { schema: shopSchema } }, ...on() });
    expect(status).toBe(200);
    expect(body.data.json).toEqual(shopData);
    expect(body.data.metadata.creditsUsed).toBe(5);
    expect(await chargesOf(body.data.metadata.scrapeId)).toEqual([-5]);
  });

  it('infers a schema for a prompt alone', async () => {
    fake.script((_r, n) =>
      n === 0 ? { content: JSON.stringify({ type: 'object', properties: { price: { type: 'number' } } }) } : answer({ price: 64.5 }, { price: '$64.50' }),
    );
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/extract/llm-shop'), formats: ['json'], jsonOptions: { prompt: 'the price' } }, ...on() });
    expect(status).toBe(200);
    expect(body.data.json).toEqual({ price: 64.5 });
  });

  it('answers 502 LLM_ERROR when the model fails, without charging', async () => {
    fake.script(() => ({ status: 500, message: 'model overloaded' }));
    const { status, body } = await api('/v1/scrape', { body: { url: fixture('/extract/llm-shop'), formats: ['json'], jsonOptions: { schema: shopSchema } }, ...on() });
    expect(status).toBe(502);
    expect(body).toMatchObject({ success: false, code: 'LLM_ERROR', error: expect.stringContaining('answered 500') });
  });
});

// Last: once a server refuses JSON Schema output, the worker stays in JSON mode.
describe('a server without structured output', () => {
  it('falls back to JSON mode and validates the answer itself', async () => {
    fake.script((request) =>
      request.response_format?.type === 'json_schema' ? { status: 400, message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model." } : answer(shopData, shopEvidence),
    );
    const { result } = await runExtract({ urls: [fixture('/extract/llm-shop')], schema: shopSchema }, on());
    expect(result.status, result.error).toBe('completed');
    expect(result.data).toEqual(shopData);
    expect(fake.requests.map((r) => r.response_format?.type)).toEqual(['json_schema', 'json_object']);
    expect(userMessage(fake.requests[1]!)).toContain('JSON Schema of "data"');
  });
});
