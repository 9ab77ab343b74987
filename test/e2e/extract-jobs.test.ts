import { randomUUID } from 'node:crypto';
import { FirecrawlAppV1 as FirecrawlApp } from '@mendable/firecrawl-js';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { jobs, ledger } from '../../src/db/schema';
import { EXTRACT_FIXTURES as F } from '../fixtures/extract-pages';
import { api, fixture } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { noteFor, runExtract } from '../helpers/extract-job';
import { activitiesOf } from '../helpers/workflow-history';

const EventType = temporal.api.enums.v1.EventType;

const catalogSchema = {
  type: 'object',
  properties: {
    store: { type: 'string' },
    products: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name'] } },
  },
};

async function chargesOf(jobId: string): Promise<number[]> {
  const rows = await testDatabase().db.select({ amount: ledger.amount }).from(ledger).where(eq(ledger.jobId, jobId));
  return rows.map((r) => r.amount);
}

describe('extract jobs', () => {
  it('merges several pages: lists concatenate without duplicates, a scalar takes the surest value, the notes say how', async () => {
    const urls = [fixture('/extract/catalog/1'), fixture('/extract/catalog/2')];
    const { start, result } = await runExtract({ urls, schema: catalogSchema, showSources: true });
    expect(result.status).toBe('completed');
    // The jacket is on both pages and appears once.
    expect(result.data!.products).toEqual(F.catalog.map((p) => ({ name: p.name, price: p.price })));
    expect(result.data!.store).toBe('Field & Thread');
    expect(result.sources).toEqual(urls);

    const list = noteFor(result, 'products');
    expect(list.message).toContain('1 duplicate(s) removed');
    expect(list.message).toContain(`2 from ${urls[0]}`);
    expect(list.message).toContain(`1 from ${urls[1]}`);
    expect(noteFor(result, 'products[2].name')).toMatchObject({ source: 'json-ld', url: urls[1], evidence: `"name": "${F.catalog[2].name}"` });
    const store = noteFor(result, 'store');
    expect(store).toMatchObject({ source: 'opengraph', url: urls[0] });
    expect(store.message).toContain('Field & Thread Outlet');

    expect(result.creditsUsed).toBe(10);
    expect(await chargesOf(start.body.id)).toEqual([-10]);
  });

  it('expands a https://host/path/* wildcard through map discovery to the pages under that path', async () => {
    const { start, result } = await runExtract({ urls: [`${fixture('/extract/catalog')}/*`], schema: catalogSchema, showSources: true });
    expect(result.status).toBe('completed');
    expect(result.sources).toEqual(expect.arrayContaining([fixture('/extract/catalog/1'), fixture('/extract/catalog/2')]));
    expect(result.sources!.every((s) => s.startsWith(fixture('/extract/catalog/')))).toBe(true);
    expect(result.data!.products).toEqual(F.catalog.map((p) => ({ name: p.name, price: p.price })));
    expect(await chargesOf(start.body.id)).toEqual([-5 * result.sources!.length]);

    const bad = await api('/v1/extract', { body: { urls: [`${fixture('/extract')}/*/x`], schema: catalogSchema } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: 'urls.0', message: 'not a https://host/path/* wildcard' }]);
  });

  it('charges only the pages it read and notes the one it could not', async () => {
    const good = fixture('/extract/product-jsonld');
    const bad = fixture('/extract/unreachable');
    const { start, result } = await runExtract({ urls: [good, bad], schema: { type: 'object', properties: { name: { type: 'string' } } }, showSources: true });
    expect(result.status).toBe('completed');
    expect(result.data).toEqual({ name: F.product.name });
    expect(result.sources).toEqual([good]);
    expect(result.notes.find((n) => n.url === bad)).toMatchObject({ path: '', source: 'none', message: expect.stringContaining('SCRAPE_CONNECTION_ERROR') });
    expect(await chargesOf(start.body.id)).toEqual([-5]);
  });

  it('reads a page that answers 404 like a scrape does, and says so in the notes', async () => {
    const gone = fixture('/gone');
    const { start, result } = await runExtract({ urls: [gone], schema: { type: 'object', properties: { price: { type: 'number' } } } });
    expect(result.status).toBe('completed');
    expect(result.data).toEqual({});
    expect(result.notes.find((n) => n.url === gone && n.path === '')?.message).toContain('answered HTTP 404');
    expect(await chargesOf(start.body.id)).toEqual([-5]);
  });

  it('fails, uncharged, when no page can be read', async () => {
    const { start, result } = await runExtract({ urls: [fixture('/extract/unreachable')], schema: { type: 'object', properties: { name: { type: 'string' } } } });
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/could be read/);
    expect(result.data).toBeNull();
    expect(await chargesOf(start.body.id)).toEqual([]);
  });
});

describe('extract through the Firecrawl v1 SDK', () => {
  const sdk = () => new FirecrawlApp({ apiKey: inject('apiKey'), apiUrl: inject('apiUrl') });

  it('starts a job and polls it to the result', async () => {
    const result = await sdk().extract([fixture('/extract/product-jsonld')], {
      schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' } }, required: ['name', 'price', 'currency'] },
      showSources: true,
    });
    expect(result).toMatchObject({ success: true, data: { name: F.product.name, price: F.product.price, currency: F.product.currency }, sources: [fixture('/extract/product-jsonld')] });
  });

  it('surfaces a failed job as an error', async () => {
    await expect(sdk().extract([fixture('/extract/unreachable')], { schema: { type: 'object', properties: { name: { type: 'string' } } } })).rejects.toThrow(/Extract job failed/);
  });

  it('surfaces a refused request as an error', async () => {
    // The SDK reports the status of a refused extract, not its message.
    await expect(sdk().extract([fixture('/extract/product-jsonld')], { prompt: 'the product name' })).rejects.toThrow(/422/);
  });
});

describe('extract credits are charged once', () => {
  let client: Client;
  let connection: Connection;
  beforeAll(async () => {
    connection = await Connection.connect({ address: inject('temporalAddress') });
    client = new Client({ connection });
  });
  afterAll(async () => connection?.close());

  it('re-running every activity of a finished job (a workflow reset) changes nothing and charges nothing more', async () => {
    const { start, result } = await runExtract({ urls: [fixture('/extract/catalog/1'), fixture('/extract/catalog/2')], schema: catalogSchema });
    expect(result.status).toBe('completed');
    const id = start.body.id as string;
    expect(await chargesOf(id)).toEqual([-10]);

    const handle = client.workflow.getHandle(`extract-${id}`);
    const first = await handle.fetchHistory();
    const firstTask = first.events!.find((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)!;
    const { runId } = await client.workflowService.resetWorkflowExecution({
      namespace: 'default',
      workflowExecution: { workflowId: `extract-${id}` },
      workflowTaskFinishEventId: firstTask.eventId,
      requestId: randomUUID(),
      reason: 'test: run every activity again',
    });
    const rerun = client.workflow.getHandle(`extract-${id}`, runId!);
    expect(await rerun.result()).toEqual({ credits: 10 });
    const history = await rerun.fetchHistory();
    const ran = history.events!.filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED).length;
    const scheduled = history.events!.filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED).length;
    const activities = (await activitiesOf(client, `extract-${id}`, runId!)).map((a) => a.type);
    expect(activities).toEqual(expect.arrayContaining(['scrapePageHttp', 'extractPageData', 'finishExtract']));
    expect(ran).toBe(scheduled);

    expect(await chargesOf(id)).toEqual([-10]);
    const again = await api(`/v1/extract/${id}`);
    expect(again.body).toMatchObject({ status: 'completed', creditsUsed: 10, data: result.data });
  });
});

describe('POST /v1/extract: refusals', () => {
  const schema = { type: 'object', properties: { name: { type: 'string' } } };

  it('takes at most 10 URLs', async () => {
    const urls = Array.from({ length: 11 }, (_, i) => fixture(`/extract/plain?${i}`));
    const { status, body } = await api('/v1/extract', { body: { urls, schema } });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(body.details).toEqual([expect.objectContaining({ path: 'urls' })]);
  });

  it('answers a prompt without a schema with 422 LLM_NOT_CONFIGURED, saying how to configure one', async () => {
    const { status, body } = await api('/v1/extract', { body: { urls: [fixture('/extract/plain')], prompt: 'the title' } });
    expect(status).toBe(422);
    expect(body.code).toBe('LLM_NOT_CONFIGURED');
    expect(body.error).toContain('LLM_BASE_URL');
    expect(body.error).toContain('Ollama');
  });

  it('refuses a request with neither schema nor prompt, a schema that is not an object schema, and unknown fields', async () => {
    const neither = await api('/v1/extract', { body: { urls: [fixture('/extract/plain')] } });
    expect(neither.status).toBe(400);
    expect(neither.body.details).toEqual([{ path: 'schema', message: 'give a schema, a prompt, or both' }]);
    const notObject = await api('/v1/extract', { body: { urls: [fixture('/extract/plain')], schema: { type: 'string' } } });
    expect(notObject.status).toBe(400);
    expect(notObject.body.details[0].path).toBe('schema');
    const invalid = await api('/v1/extract', { body: { urls: [fixture('/extract/plain')], schema: { type: 'object', properties: { a: { type: 'strnig' } } } } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details[0].message).toContain('not a valid JSON Schema');
    const unknown = await api('/v1/extract', { body: { urls: [fixture('/extract/plain')], schema, limit: 3 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([{ path: 'limit', message: 'Unknown field "limit"' }]);
  });

  it('refuses a private URL, or skips it with ignoreInvalidURLs', async () => {
    const refused = await api('/v1/extract', { body: { urls: ['http://169.254.169.254/latest/meta-data'], schema } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('URL_BLOCKED');
    const skipped = await api('/v1/extract', { body: { urls: ['http://169.254.169.254/latest/meta-data', fixture('/extract/plain')], schema, ignoreInvalidURLs: true } });
    expect(skipped.status).toBe(200);
    expect(skipped.body).toMatchObject({ success: true, id: expect.any(String), invalidURLs: ['http://169.254.169.254/latest/meta-data'] });
  });

  it('needs credits, and keeps jobs to their team', async () => {
    const broke = await api('/v1/extract', { body: { urls: [fixture('/extract/plain')], schema }, key: inject('brokeKey') });
    expect(broke.status).toBe(402);
    expect(broke.body.code).toBe('INSUFFICIENT_CREDITS');

    const { start } = await runExtract({ urls: [fixture('/extract/plain')], schema });
    const foreign = await api(`/v1/extract/${start.body.id}`, { key: inject('brokeKey') });
    expect(foreign.status).toBe(404);
    expect((await api(`/v1/extract/${randomUUID()}`)).status).toBe(404);
    const [job] = await testDatabase().db.select().from(jobs).where(eq(jobs.id, start.body.id));
    expect(job).toMatchObject({ kind: 'extract', status: 'completed' });
  });
});

describe('the json format on scrape (structured-data engine)', () => {
  it('returns json with the document and charges 1 + 4', async () => {
    const { status, body } = await api('/v1/scrape', {
      body: {
        url: fixture('/extract/product-jsonld'),
        formats: ['json', 'markdown'],
        jsonOptions: { schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name', 'price'] } },
      },
    });
    expect(status).toBe(200);
    expect(body.data.json).toEqual({ name: F.product.name, price: F.product.price });
    expect(Object.keys(body.data.json)).toEqual(['name', 'price']);
    expect(body.data.markdown).toContain(F.product.name);
    expect(body.data.rawHtml).toBeUndefined();
    expect(body.data.metadata.creditsUsed).toBe(5);
    expect(await chargesOf(body.data.metadata.scrapeId)).toEqual([-5]);
  });

  it('works through the SDK with jsonOptions', async () => {
    const app = new FirecrawlApp({ apiKey: inject('apiKey'), apiUrl: inject('apiUrl') });
    // The SDK types jsonOptions.schema as a zod schema; a JSON Schema passes through as is.
    const schema = { type: 'object', properties: { venue: { type: 'string' } } } as unknown as NonNullable<NonNullable<Parameters<FirecrawlApp['scrapeUrl']>[1]>['jsonOptions']>['schema'];
    const doc = await app.scrapeUrl(fixture('/extract/event-jsonld'), { formats: ['json'], jsonOptions: { schema } });
    expect(doc).toMatchObject({ success: true, json: { venue: F.event.venue } });
  });

  it('needs jsonOptions, and an LLM for a prompt alone', async () => {
    const missing = await api('/v1/scrape', { body: { url: fixture('/extract/plain'), formats: ['json'] } });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([expect.objectContaining({ path: 'jsonOptions' })]);
    const stray = await api('/v1/scrape', { body: { url: fixture('/extract/plain'), jsonOptions: { prompt: 'x' } } });
    expect(stray.status).toBe(400);
    const promptOnly = await api('/v1/scrape', { body: { url: fixture('/extract/plain'), formats: ['json'], jsonOptions: { prompt: 'the title' } } });
    expect(promptOnly.status).toBe(422);
    expect(promptOnly.body.code).toBe('LLM_NOT_CONFIGURED');
  });
});
