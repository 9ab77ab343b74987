import { setTimeout as sleep } from 'node:timers/promises';
import Firecrawl from '@mendable/firecrawl-js';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ledger, pageExtractions, pages } from '../../src/db/schema';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { testDatabase } from '../helpers/db';
import { until } from '../helpers/monitors';
import { startOwnStack } from '../helpers/own-stack';
import type { Stack } from '../helpers/stack';
import { urlKey } from '../../src/url/normalize-url';

/** A stack of this file's own, so its worker can be killed without touching the shared one. */
let stack: Stack;
let site: FixtureServer;
const at = (path: string) => `${site.url}${path}`;
const product = (sku: string) =>
  `<!doctype html><html lang="en"><head><title>${sku}</title><script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: sku, sku, offers: { '@type': 'Offer', price: '10.00', priceCurrency: 'EUR' } })}</script></head><body><main><h1>${sku}</h1></main></body></html>`;
const SCHEMA = { type: 'object', properties: { sku: { type: 'string' }, price: { type: 'number' } } };

beforeAll(async () => {
  site = await startFixtureServer(
    {
      '/fast/a': (_req, res) => html(res, product('FA-1')),
      '/fast/b': (_req, res) => html(res, product('FB-2')),
      '/slow/c': async (_req, res) => {
        await sleep(6_000);
        html(res, product('SC-3'));
      },
    },
    inject('siteHosts')[0],
  );
  stack = await startOwnStack('agent-durability', { allowPrivateHosts: inject('siteHosts') });
});
afterAll(async () => {
  await stack?.stop();
  await site?.close();
});

describe('an agent run is durable', () => {
  it('completes once after its worker is killed mid-run; pages already read are not fetched or charged again', async () => {
    const sdk = new Firecrawl({ apiKey: inject('apiKey'), apiUrl: stack.apiUrl });
    const urls = [at('/fast/a'), at('/fast/b'), at('/slow/c')];
    const { id } = await sdk.startAgent({ prompt: 'SKUs', urls, schema: SCHEMA });
    const db = testDatabase().db;
    const extracted = async () =>
      (await db.select({ n: sql<number>`count(*)::int` }).from(pageExtractions).where(eq(pageExtractions.jobId, id)))[0]!.n;
    await until(async () => (await extracted()) >= 2, 'the two fast pages read', 60_000);
    stack.worker.child.kill('SIGKILL');
    await stack.worker.exited;
    expect((await sdk.getAgentStatus(id)).status).toBe('processing');
    await stack.restartWorker();

    let status = await sdk.getAgentStatus(id);
    await until(
      async () => {
        status = await sdk.getAgentStatus(id);
        return status.status !== 'processing';
      },
      'the run to end',
      150_000,
    );
    expect(status).toMatchObject({ status: 'completed', creditsUsed: 15 });
    expect(site.hits.get('/fast/a')).toBe(1);
    expect(site.hits.get('/fast/b')).toBe(1);
    const stored = await db.select({ urlKey: pages.urlKey }).from(pages).where(and(eq(pages.jobId, id), eq(pages.status, 'scraped')));
    expect(stored.map((p) => p.urlKey).sort()).toEqual(urls.map((u) => urlKey(u)).sort());
    const charges = await db.select({ key: ledger.idempotencyKey, amount: ledger.amount }).from(ledger).where(eq(ledger.jobId, id));
    expect(charges.map((c) => c.key).sort()).toEqual(urls.map((u) => `agent:${id}:page:${urlKey(u)}`).sort());
    expect(charges.every((c) => c.amount === -5)).toBe(true);
  });
});
