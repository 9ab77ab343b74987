import Firecrawl from '@mendable/firecrawl-js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ledger } from '../../src/db/schema';
import { ARTICLE_TITLE } from '../fixtures/scrape-pages';
import { fixture } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import type { FakeOpenAi } from '../helpers/fake-openai';
import { startLlmStack, type LlmStack } from '../helpers/llm-stack';
import type { Stack } from '../helpers/stack';

/** The summary format needs an LLM: its own API and worker, pointed at a local OpenAI-protocol server. */
let llm: LlmStack;
let fake: FakeOpenAi;
let stack: Stack;

beforeAll(async () => {
  llm = await startLlmStack('v2-summary', { allowPrivateHosts: [new URL(inject('fixtureUrl')).host] });
  ({ fake, stack } = llm);
});
afterAll(async () => {
  await llm?.stop();
});

describe('the summary format with an LLM configured', () => {
  it('summarises the page’s markdown, and charges the json price once for it', async () => {
    fake.script(() => ({ content: JSON.stringify({ summary: 'Lighthouses guided ships for centuries.' }), tokens: 800 }));
    const client = new Firecrawl({ apiKey: inject('apiKey'), apiUrl: stack.apiUrl });
    const doc = await client.scrape(fixture('/article'), { formats: ['markdown', 'summary'], maxAge: 0 });
    expect(doc.summary).toBe('Lighthouses guided ships for centuries.');
    expect(doc.markdown).toContain(ARTICLE_TITLE);

    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.response_format?.json_schema?.name).toBe('page_summary');
    expect(request.messages.find((m) => m.role === 'user')!.content).toBe(doc.markdown);

    const scrapeId = doc.metadata!.scrapeId as string;
    const charges = await testDatabase().db.select({ amount: ledger.amount, key: ledger.idempotencyKey }).from(ledger).where(eq(ledger.jobId, scrapeId));
    expect(charges.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { amount: -1, key: `scrape:${scrapeId}` },
      { amount: -4, key: `summary:${scrapeId}` },
    ]);
    expect(doc.metadata?.creditsUsed).toBe(5);
  });
});
