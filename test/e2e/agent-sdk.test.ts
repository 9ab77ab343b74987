import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Firecrawl from '@mendable/firecrawl-js';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ledger } from '../../src/db/schema';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { testDatabase } from '../helpers/db';
import { firecrawl } from '../helpers/firecrawl-cli';
import { callTool, connectHttpMcp, jsonOf } from '../helpers/mcp-client';
import { signedByTeam, startHookReceiver, until } from '../helpers/monitors';
import { testTemporal } from '../helpers/temporal';
import { refusal } from '../helpers/sdk-refusal';

/** /v2/agent through firecrawl-js 4.42, unmodified, on the default stack (no LLM). */
let site: FixtureServer;
/** Another host, which the shop links to: a run follows links on the given pages' own site only. */
let elsewhere: FixtureServer;
const at = (path: string) => `${site.url}${path}`;
const sdk = () => new Firecrawl({ apiKey: inject('apiKey'), apiUrl: inject('apiUrl') });
/** A word only this file's pages carry, so the local search index finds them and nothing else. */
const WORD = `quillmere${randomUUID().slice(0, 6)}`;

const ld = (data: object) => `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', ...data })}</script>`;
const productPage = (name: string, sku: string, price: string, brand: string) =>
  `<!doctype html><html lang="en"><head><title>${name} ${WORD}</title>${ld({ '@type': 'Product', name, sku, brand: { '@type': 'Brand', name: brand }, offers: { '@type': 'Offer', price, priceCurrency: 'EUR' } })}</head>` +
  `<body><main><h1>${name}</h1><p>The ${WORD} ${name}, made by ${brand}.</p><p>€${price}</p></main></body></html>`;

const PRODUCT_SCHEMA = {
  type: 'object',
  properties: { sku: { type: 'string' }, price: { type: 'number' }, brand: { type: 'string' } },
};

const LIST_SCHEMA = {
  type: 'object',
  properties: { products: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, sku: { type: 'string' }, price: { type: 'number' } } } } },
};

beforeAll(async () => {
  elsewhere = await startFixtureServer({ '/products/lantern': (_req, res) => html(res, productPage('Brass lantern', 'BL-0001', '99.00', 'Elsewhere')) }, inject('siteHosts')[1]);
  const shop = () =>
    `<!doctype html><html lang="en"><head><title>The shop</title></head><body><main><h1>Our products</h1><ul>` +
    `<li><a href="/products/kettle">Copper kettle</a></li><li><a href="/products/teapot">Stoneware teapot</a></li><li><a href="/products/mugs">Enamel mugs</a></li>` +
    `</ul><p><a href="/about">About us</a> · <a href="${elsewhere.url}/products/lantern">Our partner's lantern</a></p></main></body></html>`;
  site = await startFixtureServer(
    {
      '/shop': (_req, res) => html(res, shop()),
      '/about': (_req, res) => html(res, '<!doctype html><html lang="en"><head><title>About</title></head><body><main><p>A family business.</p></main></body></html>'),
      '/products/kettle': (_req, res) => html(res, productPage('Copper kettle', 'CK-4411', '64.50', 'Harrow & Vale')),
      '/products/teapot': (_req, res) => html(res, productPage('Stoneware teapot', 'ST-0907', '38.00', 'Harrow & Vale')),
      '/products/mugs': (_req, res) => html(res, productPage('Enamel mugs', 'EM-1202', '22.00', 'Harrow & Vale')),
      '/kettle': (_req, res) => html(res, productPage('Copper kettle', 'CK-4411', '64.50', 'Harrow & Vale')),
      '/teapot': (_req, res) => html(res, productPage('Stoneware teapot', 'ST-0907', '38.00', 'Harrow & Vale')),
      '/mugs': (_req, res) => html(res, productPage('Enamel mugs', 'EM-1202', '22.00', 'Harrow & Vale')),
      '/slow': async (_req, res) => {
        await sleep(20_000);
        html(res, productPage('Slow lamp', 'SL-1', '1.00', 'Late'));
      },
    },
    inject('siteHosts')[0],
  );
});
afterAll(async () => {
  await site?.close();
  await elsewhere?.close();
});

const toolsOf = (trace: Awaited<ReturnType<Firecrawl['getAgentTrace']>>) =>
  trace.events!.filter((e) => e.type === 'tool_call.finished').map((e) => e as { toolName: string; result: unknown });

describe('/v2/agent through firecrawl-js 4.42, no LLM', () => {
  it('fills a schema from the URLs given (a product’s SKU, price and brand from its JSON-LD), with sources, a trace and charges per page', async () => {
    const done = await sdk().agent({ prompt: 'Find the SKU, price and brand of the copper kettle', urls: [at('/kettle')], schema: PRODUCT_SCHEMA, pollInterval: 1, timeout: 60 });
    expect(done).toMatchObject({ success: true, status: 'completed', data: { sku: 'CK-4411', price: 64.5, brand: 'Harrow & Vale' } });
    expect((done as { sources?: Record<string, string[]> }).sources).toMatchObject({ sku: [at('/kettle')] });
    // One page scraped with the json format: 1 + 4, as /v2/scrape charges it.
    expect(done.creditsUsed).toBe(5);

    const [run] = (await sdk().listAgents()).agents!;
    const id = run!.id;
    expect(run).toMatchObject({ status: 'completed', options: { prompt: 'Find the SKU, price and brand of the copper kettle', urls: [at('/kettle')] } });
    const charges = await testDatabase().db.select().from(ledger).where(like(ledger.idempotencyKey, `agent:${id}:%`));
    expect(charges.map((c) => c.amount)).toEqual([-5]);

    const trace = await sdk().getAgentTrace(id);
    expect(trace.success).toBe(true);
    expect(toolsOf(trace).map((t) => t.toolName)).toEqual(['plan', 'scrape', 'extract', 'finish']);
    // Filling the schema is its own step, with what it found.
    expect(toolsOf(trace).find((t) => t.toolName === 'extract')?.result).toMatchObject({ data: { sku: 'CK-4411' }, sources: { sku: [at('/kettle')] } });
    expect(trace.events![0]!.type).toBe('run.started');
    expect(trace.events!.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'succeeded', error: null });
    const started = trace.events!.find((e) => e.type === 'tool_call.started' && (e as { toolName: string }).toolName === 'scrape');
    expect(started).toMatchObject({ parameters: { url: at('/kettle'), formats: ['markdown', 'json'] } });
    // The run is one workflow, named for it, on the http queue.
    const workflow = await (await testTemporal()).workflow.getHandle(`agent-${id}`).describe();
    expect(workflow.status.name).toBe('COMPLETED');
    expect(workflow.taskQueue).toBe(`${inject('queuePrefix')}-http`);
  });

  it('for a list, also reads the pages the given one links to on its site (not elsewhere), and merges their items with sources', async () => {
    const done = await sdk().agent({ prompt: 'List every product with its SKU and price', urls: [at('/shop')], schema: LIST_SCHEMA, pollInterval: 1, timeout: 90 });
    expect(done.status, done.error).toBe('completed');
    const products = (done.data as { products: { name: string; sku: string; price: number }[] }).products;
    expect(products.map((p) => p.sku).sort()).toEqual(['CK-4411', 'EM-1202', 'ST-0907']);
    expect(products.find((p) => p.sku === 'ST-0907')).toMatchObject({ name: 'Stoneware teapot', price: 38 });
    // Each item's fields name the page they came from.
    const sources = (done as { sources?: Record<string, string[]> }).sources!;
    products.forEach((p, i) => expect(sources[`products[${i}].sku`]).toEqual([at(`/products/${p.name.split(' ')[1]!.toLowerCase()}`)]));
    // The index and three products, each charged as a scrape with the json format.
    expect(done.creditsUsed).toBe(4 * 5);
    // The other host's page and the unrelated page were not read.
    expect(elsewhere.hits.get('/products/lantern') ?? 0).toBe(0);
    expect(site.hits.get('/about') ?? 0).toBe(0);

    const id = (await sdk().listAgents()).agents![0]!.id;
    const tools = toolsOf(await sdk().getAgentTrace(id));
    expect(tools.map((t) => t.toolName)).toEqual(['plan', 'scrape', 'links', 'scrape', 'scrape', 'scrape', 'extract', 'finish']);
    const links = tools.find((t) => t.toolName === 'links')!.result as { pages: { url: string; text: string }[] };
    expect(links.pages.map((p) => p.url).sort()).toEqual([at('/products/kettle'), at('/products/mugs'), at('/products/teapot')]);
    expect(links.pages.map((p) => p.text)).toContain('Stoneware teapot');
    const charges = await testDatabase().db.select().from(ledger).where(like(ledger.idempotencyKey, `agent:${id}:page:%`));
    expect(charges).toHaveLength(4);

    // The followed pages stop at maxCredits like the given ones: the index (5) and one product (5) fit in 12, a second may cost 6.
    const capped = await sdk().agent({ prompt: 'List every product with its SKU and price', urls: [at('/shop')], schema: LIST_SCHEMA, maxCredits: 12, pollInterval: 1, timeout: 90 });
    expect(capped.status).toBe('failed');
    expect(capped.error).toContain('maxCredits (12) reached');
    expect(capped.creditsUsed).toBe(10);
    expect((capped.data as { products: unknown[] }).products).toHaveLength(1);
  });

  it('without URLs, finds the page through search (the local index) and fills the schema from it', async () => {
    // The local index holds what was scraped: the kettle page is read once first, and is
    // searchable once the indexer's next pass has run (docs/operations.md, Search indexing).
    await sdk().scrape(at('/kettle'), { formats: ['markdown'] });
    await expect.poll(async () => (await sdk().search(`${WORD} copper kettle`, { limit: 5 })).web?.map((r) => ('url' in r ? r.url : undefined)), { timeout: 30_000, interval: 500 }).toContain(at('/kettle'));
    const done = await sdk().agent({ prompt: `${WORD} copper kettle`, schema: PRODUCT_SCHEMA, pollInterval: 1, timeout: 90 });
    expect(done.status, done.error).toBe('completed');
    expect(done.data).toMatchObject({ sku: 'CK-4411', price: 64.5, brand: 'Harrow & Vale' });
    const id = (await sdk().listAgents()).agents![0]!.id;
    const trace = await sdk().getAgentTrace(id);
    const search = trace.events!.find((e) => e.type === 'tool_call.finished' && (e as { toolName: string }).toolName === 'search') as { result: { pages: { url: string }[] } } | undefined;
    expect(search?.result.pages.map((p) => p.url)).toContain(at('/kettle'));
    // The search is charged as a search without scraping (2 a result), once; each page as a scrape.
    const charges = await testDatabase().db.select().from(ledger).where(like(ledger.idempotencyKey, `agent:${id}:%`));
    const found = search!.result.pages.length;
    expect(charges.find((c) => c.idempotencyKey === `agent:${id}:search`)?.amount).toBe(-2 * found);
    expect(charges.filter((c) => c.idempotencyKey.startsWith(`agent:${id}:page:`))).toHaveLength(found);
    expect(done.creditsUsed).toBe(-charges.reduce((sum, c) => sum + c.amount, 0));
  });

  it('stops at maxCredits with a failed status naming the ceiling, and keeps what it found', async () => {
    const tiny = await sdk().agent({ prompt: 'SKUs of three products', urls: [at('/kettle'), at('/teapot'), at('/mugs')], schema: PRODUCT_SCHEMA, maxCredits: 1, pollInterval: 1, timeout: 60 });
    expect(tiny.status).toBe('failed');
    expect(tiny.error).toContain('maxCredits (1) reached');
    expect(tiny.creditsUsed).toBe(0);

    // Room for one page of three: that page is read and kept, the run fails at the second.
    const partial = await sdk().agent({ prompt: 'SKUs of three products', urls: [at('/kettle'), at('/teapot'), at('/mugs')], schema: PRODUCT_SCHEMA, maxCredits: 7, pollInterval: 1, timeout: 60 });
    expect(partial.status).toBe('failed');
    expect(partial.error).toContain('maxCredits (7) reached');
    expect(partial.data).toMatchObject({ sku: 'CK-4411' });
    expect(partial.creditsUsed).toBeLessThanOrEqual(7);
    const id = (await sdk().listAgents()).agents![0]!.id;
    const trace = await sdk().getAgentTrace(id);
    expect(trace.events!.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'credit_limit_reached', error: { code: 'credit_limit_reached' } });
  });

  it('cancel stops the run: its workflow ends cancelled and the status says so', async () => {
    const started = await sdk().startAgent({ prompt: 'the slow lamp', urls: [at('/slow')], schema: PRODUCT_SCHEMA });
    const handle = (await testTemporal()).workflow.getHandle(`agent-${started.id}`);
    const deadline = Date.now() + 15_000;
    while (!(site.hits.get('/slow') ?? 0) && Date.now() < deadline) await sleep(100);
    expect(await sdk().cancelAgent(started.id)).toBe(true);
    expect((await sdk().getAgentStatus(started.id)).status).toBe('cancelled');
    await expect(handle.result()).rejects.toThrow();
    expect((await handle.describe()).status.name).toBe('CANCELLED');
    const charges = await testDatabase().db.select().from(ledger).where(and(like(ledger.idempotencyKey, `agent:${started.id}:%`), eq(ledger.operation, 'agent')));
    expect(charges).toEqual([]);
  });

  it('refuses by name what it does not serve: threads, chat mode, the exchange', async () => {
    const chat = await refusal(sdk().startAgent({ prompt: 'hello', mode: 'chat' }));
    expect(chat.status).toBe(501);
    expect(chat.message).toContain('`mode`');
    const thread = await refusal(sdk().startAgent({ prompt: 'hello', threadId: 'abc' }));
    expect(thread.status).toBe(501);
    expect(thread.message).toContain('`threadId`');
    const exchange = await refusal(sdk().startAgent({ prompt: 'hello', exchange: { enabled: true } }));
    expect(exchange.status).toBe(501);
    expect(exchange.message).toContain('`exchange`');
  });

  it('firecrawl-cli 1.23: `firecrawl agent "<prompt>" --urls … --schema … --wait` prints the data', async () => {
    const run = await firecrawl('agent', 'Find the SKU, price and brand of the teapot', '--urls', at('/teapot'), '--schema', JSON.stringify(PRODUCT_SCHEMA), '--wait', '--poll-interval', '1', '--timeout', '50', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ success: true, status: 'completed', data: { sku: 'ST-0907', price: 38, brand: 'Harrow & Vale' }, creditsUsed: 5 });
  });

  it('our MCP server’s firecrawl_agent runs it and answers the data; firecrawl_agent_status reads it again', async () => {
    const mcp = await connectHttpMcp(inject('apiUrl'), inject('apiKey'));
    try {
      const run = jsonOf(await callTool(mcp, 'firecrawl_agent', { prompt: 'the mugs', urls: [at('/mugs')], schema: PRODUCT_SCHEMA }));
      expect(run).toMatchObject({ id: expect.any(String), status: 'completed', data: { sku: 'EM-1202', price: 22 } });
      expect(jsonOf(await callTool(mcp, 'firecrawl_agent_status', { id: run.id }))).toMatchObject({ id: run.id, status: 'completed', data: { sku: 'EM-1202' } });
      const refused = await callTool(mcp, 'firecrawl_agent', { prompt: 'x', threadId: 'abc' });
      expect(refused.isError).toBe(true);
    } finally {
      await mcp.close();
    }
  });

  it('posts the run’s events to its webhook, signed, with the data and the caller’s metadata', async () => {
    const hooks = await startHookReceiver(inject('siteHosts')[1]!);
    try {
      const { id } = await sdk().startAgent({ prompt: 'the kettle', urls: [at('/kettle')], schema: PRODUCT_SCHEMA, webhook: { url: hooks.url, metadata: { order: '42' }, events: ['started', 'completed'] } });
      await until(() => hooks.received.length >= 2, 'the started and completed events', 30_000);
      expect(hooks.received.map((h) => h.parsed)).toEqual([
        { success: true, type: 'agent.started', id, metadata: { order: '42' } },
        { success: true, type: 'agent.completed', id, data: { sku: 'CK-4411', price: 64.5, brand: 'Harrow & Vale' }, creditsUsed: 5, metadata: { order: '42' } },
      ]);
      for (const hook of hooks.received) expect(await signedByTeam(hook)).toBe(true);
    } finally {
      await hooks.close();
    }
  });
});
