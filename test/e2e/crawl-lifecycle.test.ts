import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FirecrawlAppV1 as FirecrawlApp } from '@mendable/firecrawl-js';
import { Connection, Client } from '@temporalio/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiKey } from '../../src/accounts/api-keys';
import { ledger, teams } from '../../src/db/schema';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site';
import { api, fixture } from '../helpers/api';
import { allDocuments, waitForCrawl } from '../helpers/crawl';
import { testDatabase } from '../helpers/db';

let site: CrawlSite;
let temporal: Client;

beforeAll(async () => {
  site = await startCrawlSite(inject('siteHosts')[0]!, { pagesPerSection: 40, slowMs: 300 });
  temporal = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
});
afterAll(async () => {
  await site?.close();
  await temporal?.connection.close();
});

const pathOf = (url: string) => new URL(url).pathname.replace(/\/+$/, '') || '/';

async function startCrawl(body: Record<string, unknown>, headers?: { key?: string }) {
  const response = await api('/v1/crawl', { body: { url: site.url, ...body }, ...headers });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.id as string;
}

/** Whether a Temporal visibility query finds the workflow (visibility lags writes a little). */
async function listed(query: string, workflowId: string): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    for await (const run of temporal.workflow.list({ query })) if (run.workflowId === workflowId) return true;
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

async function ledgerOf(jobId: string) {
  return testDatabase().db.select({ amount: ledger.amount, key: ledger.idempotencyKey }).from(ledger).where(eq(ledger.jobId, jobId));
}

describe('cancel and retry', () => {
  it('cancels mid-crawl, stops fetching and keeps the finished pages', async () => {
    const id = await startCrawl({ maxDepth: 3, ignoreSitemap: true, delay: 0.25 });
    for (let completed = 0; completed < 3; ) {
      await new Promise((r) => setTimeout(r, 200));
      completed = (await api(`/v1/crawl/${id}`)).body.completed;
    }
    const active = await api('/v1/crawl/active');
    expect(active.body.crawls.map((c: { id: string }) => c.id)).toContain(id);
    expect(await listed(`CrawlStatus = "scraping" AND TeamId = "${inject('teamId')}"`, `crawl-${id}`)).toBe(true);
    const description = await temporal.workflow.getHandle(`crawl-${id}`).describe();
    expect(await description.staticSummary()).toBe(`Crawl of ${site.url} (limit 10000)`);

    const cancelled = await api(`/v1/crawl/${id}`, { method: 'DELETE' });
    expect(cancelled.body).toEqual({ success: true, status: 'cancelled' });
    const run = temporal.workflow.getHandle(`crawl-${id}`);
    await expect(run.result()).rejects.toThrow();
    expect((await run.describe()).status.name).toBe('CANCELLED');

    const after = await api(`/v1/crawl/${id}`);
    expect(after.body.status).toBe('cancelled');
    expect(after.body.completed).toBeGreaterThanOrEqual(3);
    expect(after.body.data.length).toBe(after.body.completed);
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await api(`/v1/crawl/${id}`)).body.completed).toBe(after.body.completed);
    expect((await api('/v1/crawl/active')).body.crawls.map((c: { id: string }) => c.id)).not.toContain(id);
  });

  it('retries only the failed pages and charges only the new successes', async () => {
    const id = await startCrawl({ maxDepth: 1, ignoreSitemap: true });
    const first = await waitForCrawl(id);
    expect(await listed(`PagesFailed > 0 AND CrawlStatus = "completed"`, `crawl-${id}`)).toBe(true);
    const failedBefore = (await api(`/v1/crawl/${id}/errors`)).body.errors.map((e: { url: string }) => pathOf(e.url)).sort();
    expect(failedBefore).toEqual(['/always-500', '/heal', '/loop/a']);
    const chargedBefore = await ledgerOf(id);
    expect(chargedBefore).toHaveLength(first.completed);
    const docsHits = site.server.hits.get('/docs');

    site.heal();
    const retry = await api(`/v1/crawl/${id}/retry`, { body: { urls: [`${site.url}/heal`] } });
    expect(retry.body).toEqual({ success: true, id, retrying: 1 });
    expect((await api(`/v1/crawl/${id}`)).body.status).toBe('scraping');
    const second = await waitForCrawl(id);
    expect(second).toMatchObject({ status: 'completed', completed: first.completed + 1, failed: 2 });
    expect((await allDocuments(id)).map((d) => pathOf(d.metadata.sourceURL))).toContain('/heal');
    expect(site.server.hits.get('/docs')).toBe(docsHits);
    const chargedAfter = await ledgerOf(id);
    expect(chargedAfter).toHaveLength(first.completed + 1);
    expect(new Set(chargedAfter.map((c) => c.key)).size).toBe(chargedAfter.length);
    expect(second.creditsUsed).toBe(first.creditsUsed + 1);

    const again = await api(`/v1/crawl/${id}/retry`, { body: {} });
    expect(again.body.retrying).toBe(2);
    const third = await waitForCrawl(id);
    expect(third).toMatchObject({ status: 'completed', completed: second.completed, failed: 2 });
    expect(await ledgerOf(id)).toHaveLength(chargedAfter.length);
  });
});

describe('submission', () => {
  it('returns the same job for a resubmission with the same idempotency key', async () => {
    const key = `crawl-${Date.now()}`;
    const body = { url: site.url, maxDepth: 0, ignoreSitemap: true };
    const call = (b: unknown) =>
      fetch(`${inject('apiUrl')}/v1/crawl`, {
        method: 'POST',
        headers: { authorization: `Bearer ${inject('apiKey')}`, 'content-type': 'application/json', 'x-idempotency-key': key },
        body: JSON.stringify(b),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const [a, b] = await Promise.all([call(body), call({ ignoreSitemap: true, maxDepth: 0, url: site.url })]);
    expect(a.body.id).toBe(b.body.id);
    const conflict = await call({ ...body, maxDepth: 1 });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('refuses a team without credits and validates the body', async () => {
    const broke = await api('/v1/crawl', { body: { url: site.url }, key: inject('brokeKey') });
    expect(broke.status).toBe(402);
    expect(broke.body.code).toBe('INSUFFICIENT_CREDITS');
    const bad = await api('/v1/crawl', { body: { url: site.url, includePaths: ['('], maxDepth: -1, scrapeOptions: { formats: ['nope'] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['includePaths.0', 'maxDepth', 'scrapeOptions.formats.0']);
    const blocked = await api('/v1/crawl', { body: { url: 'http://169.254.169.254/latest' } });
    expect(blocked.status).toBe(403);
  });

  it('clamps the limit to what the credits cover', async () => {
    const db = testDatabase().db;
    const [team] = await db.insert(teams).values({ name: `clamp-${Date.now()}`, credits: 4 }).returning();
    const { key } = await createApiKey(db, team!.id);
    const id = await startCrawl({ maxDepth: 2, ignoreSitemap: true, limit: 50 }, { key });
    const done = await waitForCrawl(id, { key });
    expect(done.total).toBe(4);
    const [balance] = await db.select({ credits: teams.credits }).from(teams).where(eq(teams.id, team!.id));
    expect(balance!.credits).toBe(4 - done.completed);
  });
});

describe('webhooks', () => {
  it('delivers started, one page event per page and completed, signed with HMAC-SHA256', async () => {
    const received: { body: string; signature: string; parsed: any }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ body, signature: String(req.headers['x-webhook-signature']), parsed: JSON.parse(body) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, inject('siteHosts')[0], r));
    const hook = `http://${inject('siteHosts')[0]}:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      const id = await startCrawl({ maxDepth: 1, ignoreSitemap: true, webhook: { url: hook, metadata: { run: 'w1' } } });
      const done = await waitForCrawl(id);
      const deadline = Date.now() + 20_000;
      while (!received.some((r) => r.parsed.type === 'crawl.completed') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));

      const [team] = await testDatabase().db.select({ secret: teams.webhookSecret }).from(teams).where(eq(teams.id, inject('teamId')));
      for (const r of received) {
        expect(r.signature).toBe(`sha256=${createHmac('sha256', team!.secret).update(r.body).digest('hex')}`);
        expect(r.parsed).toMatchObject({ id, metadata: { run: 'w1' } });
      }
      const types = received.map((r) => r.parsed.type);
      expect(types[0]).toBe('crawl.started');
      expect(types.at(-1)).toBe('crawl.completed');
      const pages = received.filter((r) => r.parsed.type === 'crawl.page');
      expect(pages).toHaveLength(done.completed);
      expect(new Set(pages.map((p) => p.parsed.data[0].metadata.sourceURL)).size).toBe(done.completed);
      expect(pages[0]!.parsed.data[0].markdown).toContain('# Page');
    } finally {
      receiver.close();
    }
  });

  it('finishes the crawl on time even when the receiver hangs or fails', async () => {
    const hanging = http.createServer(() => {});
    await new Promise<void>((r) => hanging.listen(0, inject('siteHosts')[0], r));
    try {
      const hook = `http://${inject('siteHosts')[0]}:${(hanging.address() as AddressInfo).port}/hook`;
      const id = await startCrawl({ maxDepth: 1, ignoreSitemap: true, webhook: hook });
      const done = await waitForCrawl(id, { timeoutMs: 30_000 });
      expect(done.status).toBe('completed');
    } finally {
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});

describe('batch scrape and map', () => {
  it('scrapes a batch, lists invalid URLs, and resolves at both status routes', async () => {
    const urls = [fixture('/article'), fixture('/gone'), `${site.url}/docs`, 'http://10.0.0.1/internal'];
    const started = await api('/v1/batch/scrape', { body: { urls, formats: ['markdown'], ignoreInvalidURLs: true } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.invalidURLs).toEqual(['http://10.0.0.1/internal']);
    const done = await waitForCrawl(started.body.id);
    expect(done).toMatchObject({ status: 'completed', completed: 3, total: 3 });
    const viaBatch = await api(`/v1/batch/scrape/${started.body.id}`);
    expect(viaBatch.body.data.map((d: any) => d.metadata.sourceURL).sort()).toEqual(urls.slice(0, 3).sort());
    expect(viaBatch.body.data.find((d: any) => d.metadata.sourceURL.endsWith('/gone')).metadata.statusCode).toBe(404);

    const refused = await api('/v1/batch/scrape', { body: { urls } });
    expect(refused.status).toBe(403);
  });

  it('maps a site from its sitemaps and start page for one credit', async () => {
    const before = (await api('/v1/team/credit-usage')).body.data.remaining_credits;
    const mapped = await api('/v1/map', { body: { url: site.url } });
    expect(mapped.status).toBe(200);
    const paths = mapped.body.links.map(pathOf);
    expect(paths[0]).toBe('/');
    for (const p of ['/docs', '/blog', '/flaky', ...site.orphanPaths]) expect(paths).toContain(p);
    expect(paths).not.toContain('/logo.png');
    expect((await api('/v1/team/credit-usage')).body.data.remaining_credits).toBe(before - 1);

    const searched = await api('/v1/map', { body: { url: site.url, search: 'orphans', limit: 2 } });
    expect(searched.body.links).toHaveLength(2);
    expect(searched.body.links.every((l: string) => l.includes('orphans'))).toBe(true);
  });
});

describe('Firecrawl v1 SDK', () => {
  const sdk = () => new FirecrawlApp({ apiKey: inject('apiKey'), apiUrl: inject('apiUrl') });

  it('crawls with polling, and checks status, errors and cancels asynchronously', async () => {
    const result: any = await sdk().crawlUrl(site.url, { maxDepth: 1, ignoreSitemap: true, scrapeOptions: { formats: ['markdown'] } }, 1);
    expect(result.status).toBe('completed');
    expect(result.data.length).toBe(result.completed);
    expect(result.data[0].markdown).toContain('# Page');

    // `delay` is in the v1 API but not in this SDK's CrawlParams type.
    const started: any = await sdk().asyncCrawlUrl(site.url, { maxDepth: 2, ignoreSitemap: true, delay: 0.2 } as Parameters<FirecrawlApp['asyncCrawlUrl']>[1]);
    expect(started.success).toBe(true);
    const status: any = await sdk().checkCrawlStatus(started.id);
    expect(status).toMatchObject({ success: true, status: 'scraping' });
    const cancelled: any = await sdk().cancelCrawl(started.id);
    expect(cancelled.status).toBe('cancelled');
    const errors: any = await sdk().checkCrawlErrors(started.id);
    expect(errors).toMatchObject({ errors: expect.any(Array), robotsBlocked: expect.any(Array) });
  });

  it('batch-scrapes and maps', async () => {
    const batch: any = await sdk().batchScrapeUrls([fixture('/article'), `${site.url}/blog`], { formats: ['markdown'] }, 1);
    expect(batch.status).toBe('completed');
    expect(batch.data).toHaveLength(2);
    const map: any = await sdk().mapUrl(site.url, { search: 'docs' });
    expect(map.success).toBe(true);
    expect(map.links.length).toBeGreaterThan(0);
  });
});
