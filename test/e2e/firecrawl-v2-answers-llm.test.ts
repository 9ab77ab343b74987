import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Firecrawl, { type Document } from '@mendable/firecrawl-js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ledger } from '../../src/db/schema';
import { FIXTURE_TEXT } from '../fixtures/scrape-pages';
import { fixture } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { answer, type ChatRequest, type FakeOpenAi } from '../helpers/fake-openai';
import { startLlmStack, type LlmStack } from '../helpers/llm-stack';
import type { Stack } from '../helpers/stack';

/** The answer formats and product's gaps with an LLM configured: a stack of its own, pointed at a local OpenAI-protocol server. */
let llm: LlmStack;
let fake: FakeOpenAi;
let stack: Stack;
/** A crawl's webhook receiver, started before the stack so its address can be allowed. */
let receiver: http.Server;
const received: { type: string; data: Document[] }[] = [];

const BEAM = FIXTURE_TEXT.ARTICLE_PARAGRAPHS[2]!;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  llm = await startLlmStack('v2-answers', { allowPrivateHosts: [new URL(inject('fixtureUrl')).host, hookHost()] });
  ({ fake, stack } = llm);
});
afterAll(async () => {
  await llm?.stop();
  receiver?.close();
});

const hookHost = () => `127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const client = () => new Firecrawl({ apiKey: inject('apiKey'), apiUrl: stack.apiUrl });
const reply = (answer: string) => ({ content: JSON.stringify({ answer }), tokens: 900 });

describe('question and query with an LLM configured', () => {
  it('question: a grounded answer in words from the page, charged like json once per page', async () => {
    fake.script(() => reply('About twenty nautical miles.'));
    const doc = await client().scrape(fixture('/article'), { formats: [{ type: 'question', question: 'How far is a Fresnel beam visible?' }], maxAge: 0 });
    expect(doc.answer).toBe('About twenty nautical miles.');
    expect(fake.requests).toHaveLength(1);
    const user = fake.requests[0]!.messages.find((m) => m.role === 'user')!.content;
    expect(user).toContain('<question>How far is a Fresnel beam visible?</question>');
    expect(user).toContain(BEAM);
    expect(fake.requests[0]!.messages[0]!.content).toContain('using only what the page says');

    const scrapeId = doc.metadata!.scrapeId as string;
    const charges = await testDatabase().db.select({ amount: ledger.amount, key: ledger.idempotencyKey }).from(ledger).where(eq(ledger.jobId, scrapeId));
    expect(charges.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { amount: -4, key: `answer:${scrapeId}` },
      { amount: -1, key: `scrape:${scrapeId}` },
    ]);
    expect(doc.metadata?.creditsUsed).toBe(5);
  });

  it('query directQuote: the LLM’s quote when it occurs in the page', async () => {
    const quote = 'visible for more than twenty nautical miles';
    fake.script(() => reply(quote));
    const doc = await client().scrape(fixture('/article'), { formats: [{ type: 'query', prompt: 'How far is a Fresnel beam visible?', mode: 'directQuote' }] });
    expect(doc.answer).toBe(quote);
    expect(doc.warning).toBeUndefined();
    expect(fake.requests[0]!.messages[0]!.content).toContain('copied exactly');
  });

  it('query directQuote: a quote the page does not contain is replaced by the page’s best passage, with a warning', async () => {
    fake.script(() => reply('Fresnel beams reach fifty miles on a clear night.'));
    const doc = await client().scrape(fixture('/article'), { formats: [{ type: 'query', prompt: 'How far is a Fresnel beam visible?', mode: 'directQuote' }] });
    expect(doc.answer).toBe(BEAM);
    expect(doc.warning).toContain("The LLM's quote does not occur in the page");
  });

  it('highlights stay the page’s own passages, without asking the LLM', async () => {
    fake.script(() => reply('never asked'));
    const doc = await client().scrape(fixture('/article'), { formats: [{ type: 'highlights', query: 'Fresnel lens beam' }] });
    expect(doc.highlights!.split('\n\n')[0]).toBe(BEAM);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('product with an LLM configured', () => {
  it('asks the model for the fields the structured data leaves out, keeps what the page states, and charges like json once', async () => {
    fake.script(() => answer({ category: 'Trekking pack', sku: 'KES-45-SLATE' }, { category: 'A 45 litre trekking pack', sku: 'item KES-45-SLATE' }));
    const doc = await client().scrape(fixture('/extract/product-microdata'), { formats: ['product'], maxAge: 0 });
    expect(fake.requests).toHaveLength(1);
    // The category's evidence is on the page; the SKU's is not, so it stays absent.
    expect(doc.product).toMatchObject({ title: 'Kestrel 45L Backpack', brand: 'Kestrel Gear', category: 'Trekking pack' });
    expect(doc.product!.variants[0]!.sku).toBeUndefined();
    expect(doc.product!.variants[0]!.price).toEqual({ amount: 189, currency: 'EUR' });

    const scrapeId = doc.metadata!.scrapeId as string;
    const charges = await testDatabase().db.select({ amount: ledger.amount, key: ledger.idempotencyKey }).from(ledger).where(eq(ledger.jobId, scrapeId));
    expect(charges.map((c) => c.key).sort()).toEqual([`product:${scrapeId}`, `scrape:${scrapeId}`]);
    expect(doc.metadata?.creditsUsed).toBe(5);
  });
});

describe('menu with an LLM configured', () => {
  it('reads a menu the page shows without schema.org data, keeping only the items the page states', async () => {
    const page = `<!doctype html><html lang="en"><head><title>Harbour Kitchen</title></head><body><main><h1>Harbour Kitchen</h1>
<h2>Starters</h2><ul><li>Oysters, six rock oysters: €14.50</li><li>Fish soup: €7.00</li></ul></main></body></html>`;
    const S = 'hasMenuSection[0]';
    fake.script(() =>
      answer(
        { name: 'Harbour Kitchen', hasMenuSection: [{ name: 'Starters', hasMenuItem: [{ name: 'Oysters', price: 14.5, priceCurrency: 'EUR' }, { name: 'Lobster thermidor', price: 40 }] }] },
        { name: 'Harbour Kitchen', [`${S}.name`]: 'Starters', [`${S}.hasMenuItem[0].name`]: 'Oysters', [`${S}.hasMenuItem[0].price`]: '€14.50', [`${S}.hasMenuItem[0].priceCurrency`]: '€14.50' },
      ),
    );
    const doc = await client().parse({ data: Buffer.from(page), filename: 'menu.html', contentType: 'text/html' }, { formats: ['menu'] });
    expect(fake.requests).toHaveLength(1);
    expect(doc.menu).toMatchObject({ isMenu: true, merchant: { name: 'Harbour Kitchen' } });
    expect(doc.menu!.confidence).toBeGreaterThan(0.8);
    // The lobster is nowhere on the page: the model's item is dropped, not shown. "EUR" is not
    // in the words the model quoted ("€14.50"), so the currency is left out too.
    expect(doc.menu!.sections).toEqual([{ id: 'section-1', name: 'Starters', items: [expect.objectContaining({ name: 'Oysters', price: { amount: 14.5 } })] }]);
    expect(doc.menu!.currency).toBeUndefined();
    expect(doc.metadata?.creditsUsed).toBe(5);
  });
});

describe('crawls and batch scrapes with an LLM configured', () => {
  const question = { type: 'question' as const, question: 'How far is a Fresnel beam visible?' };
  const charges = (jobId: string) => testDatabase().db.select({ amount: ledger.amount, key: ledger.idempotencyKey }).from(ledger).where(eq(ledger.jobId, jobId));

  it("a batch scrape's pages get the LLM's answer, asked once per page as it is stored, and every read shows it", async () => {
    fake.script(() => reply('About twenty nautical miles.'));
    const batch = await client().batchScrape([fixture('/article'), fixture('/extract/product-microdata')], { options: { formats: [question], maxAge: 0 }, pollInterval: 1, timeout: 60 });
    expect(batch.status).toBe('completed');
    expect(batch.data.map((d) => d.answer)).toEqual(['About twenty nautical miles.', 'About twenty nautical miles.']);
    expect(fake.requests).toHaveLength(2);
    // Each page: its own price and the answer's, like json.
    expect(batch.data.map((d) => d.metadata?.creditsUsed)).toEqual([5, 5]);
    expect(batch.creditsUsed).toBe(10);

    const { id } = batch;
    const again = await client().getBatchScrapeStatus(id);
    expect(again.data.map((d) => d.answer)).toEqual(['About twenty nautical miles.', 'About twenty nautical miles.']);
    expect(fake.requests).toHaveLength(2);
    const answerCharges = (await charges(id)).filter((c) => c.key.startsWith('answer:'));
    expect(answerCharges.map((c) => c.amount)).toEqual([-4, -4]);
  });

  it("a crawl's pages and webhooks get the LLM's answer and product, each charged once per page", async () => {
    fake.script((request) =>
      request.response_format?.json_schema?.name === 'page_answer'
        ? reply('It costs 189 euros.')
        : answer({ category: 'Trekking pack' }, { category: 'A 45 litre trekking pack' }),
    );
    received.length = 0;
    const crawl = await client().crawl(fixture('/extract/product-microdata'), {
      limit: 1,
      sitemap: 'skip',
      scrapeOptions: { formats: [{ ...question, question: 'What does it cost?' }, 'product'], maxAge: 0 },
      webhook: { url: `http://${hookHost()}/hook`, events: ['page', 'completed'] },
      pollInterval: 1,
      timeout: 60,
    });
    expect(crawl.status).toBe('completed');
    const [doc] = crawl.data;
    expect(doc!.answer).toBe('It costs 189 euros.');
    expect(doc!.product).toMatchObject({ title: 'Kestrel 45L Backpack', category: 'Trekking pack' });
    expect(doc!.metadata?.creditsUsed).toBe(9);
    expect(crawl.creditsUsed).toBe(9);

    for (const deadline = Date.now() + 20_000; !received.some((r) => r.type === 'crawl.completed') && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 200));
    const hooked = received.find((r) => r.type === 'crawl.page')!.data[0]!;
    expect(hooked.answer).toBe('It costs 189 euros.');
    expect(hooked.product).toEqual(doc!.product);
    // One question and one product request for the page, however often it was read.
    expect(fake.requests).toHaveLength(2);
    const keys = (await charges(crawl.id)).map((c) => c.key.split(':')[0]).sort();
    expect(keys).toEqual(['answer', 'crawl', 'product']);
  });

  it('a batch retried after its worker died mid-answer asks the LLM again only for the page not yet stored, and charges each page once', async () => {
    const userOf = (request: ChatRequest) => request.messages.find((m) => m.role === 'user')!.content;
    const isSlow = (request: ChatRequest) => userOf(request).includes('Kestrel');
    let slowAsked!: () => void;
    const asked = new Promise<void>((resolve) => (slowAsked = resolve));
    // The product page's first answer is slow: its worker is killed while it waits, once the other pages are stored.
    fake.script((request) => {
      const first = isSlow(request) && fake.requests.filter(isSlow).length === 1;
      if (first) slowAsked();
      return { ...reply('About twenty nautical miles.'), ...(first && { delayMs: 20_000 }) };
    });
    const urls = [fixture('/article'), fixture('/extract/product-microdata'), fixture('/extract/og-only')];
    const started = await client().startBatchScrape(urls, { options: { formats: [question], maxAge: 0 } });
    await asked;
    for (const deadline = Date.now() + 30_000; (await client().getBatchScrapeStatus(started.id)).completed < 2 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 200));
    stack.worker.child.kill('SIGKILL');
    await stack.worker.exited;
    await stack.restartWorker();
    let batch = await client().getBatchScrapeStatus(started.id);
    for (const deadline = Date.now() + 90_000; batch.status === 'scraping' && Date.now() < deadline; batch = await client().getBatchScrapeStatus(started.id)) await new Promise((r) => setTimeout(r, 500));
    expect(batch.status).toBe('completed');
    expect(batch.data.map((d) => d.answer)).toEqual(urls.map(() => 'About twenty nautical miles.'));

    // The stored pages were not asked again; the page whose answer the dead worker waited for was.
    const times = new Map<string, number>();
    for (const r of fake.requests) times.set(userOf(r), (times.get(userOf(r)) ?? 0) + 1);
    expect([...times.values()].sort()).toEqual([1, 1, 2]);
    expect(fake.requests.filter(isSlow)).toHaveLength(2);
    const answerCharges = (await charges(started.id)).filter((c) => c.key.startsWith('answer:'));
    expect(answerCharges.map((c) => c.amount)).toEqual([-4, -4, -4]);
    expect(batch.creditsUsed).toBe(15);
  }, 150_000);

  it('an LLM that fails leaves the page its own passage as the answer, uncharged, with a warning', async () => {
    fake.script(() => ({ status: 400, message: 'model overloaded' }));
    const batch = await client().batchScrape([fixture('/article')], { options: { formats: [question], maxAge: 0 }, pollInterval: 1, timeout: 60 });
    expect(batch.data[0]!.answer).toBe(BEAM);
    expect(batch.data[0]!.warning).toContain('The LLM failed');
    expect(batch.data[0]!.metadata?.creditsUsed).toBe(1);
  });
});
