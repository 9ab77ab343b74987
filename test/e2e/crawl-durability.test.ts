import { Client, Connection } from '@temporalio/client';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ledger, pages } from '../../src/db/schema';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site';
import { api } from '../helpers/api';
import { expectedCrawl, fixtureRobotsBlock, waitForCrawl } from '../helpers/crawl';
import { testDatabase } from '../helpers/db';
import { startOwnStack } from '../helpers/own-stack';
import type { Stack } from '../helpers/stack';

/**
 * A stack of this file's own (own task queues) so its worker can be killed without touching
 * the shared one. Small batches make the crawl long in history, so it continues as new.
 */
let stack: Stack;
let site: CrawlSite;
let temporal: Client;
const ALWAYS_FAILING = ['/loop/a', '/always-500', '/heal'];

beforeAll(async () => {
  site = await startCrawlSite(inject('siteHosts')[0]!, { pagesPerSection: 60, pageDelayMs: 15 });
  stack = await startOwnStack('durability', {
    allowPrivateHosts: inject('siteHosts'),
    env: { CRAWL_BATCH_SIZE: '3' },
  });
  temporal = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
});
afterAll(async () => {
  await stack?.stop();
  await site?.close();
  await temporal?.connection.close();
});

const crawlApi = (p: string, body?: unknown) => api(p, { baseUrl: stack.apiUrl, ...(body !== undefined && { body }) });

async function runsOf(workflowId: string): Promise<number> {
  let runs = 0;
  for await (const _ of temporal.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs++;
  return runs;
}

describe('crash recovery and continue-as-new', () => {
  it('finishes exactly after its worker is killed mid-crawl, with one row and one charge per page', async () => {
    const started = await crawlApi('/v1/crawl', { url: site.url, maxDepth: 3, ignoreSitemap: true, maxConcurrency: 3 });
    expect(started.status).toBe(200);
    const id = started.body.id;
    for (let completed = 0; completed < 30; ) {
      await new Promise((r) => setTimeout(r, 100));
      completed = (await crawlApi(`/v1/crawl/${id}`)).body.completed;
    }
    stack.worker.child.kill('SIGKILL');
    await stack.worker.exited;
    const atKill = (await crawlApi(`/v1/crawl/${id}`)).body;
    expect(atKill.status).toBe('scraping');
    await stack.restartWorker();

    const done = await waitForCrawl(id, { baseUrl: stack.apiUrl, timeoutMs: 120_000 });
    const expected = expectedCrawl(site.linksOf, { start: '/', maxDepth: 3, isBlocked: fixtureRobotsBlock });
    expect(done).toMatchObject({ status: 'completed', total: expected.reached.size, failed: ALWAYS_FAILING.length, completed: expected.reached.size - ALWAYS_FAILING.length });

    const db = testDatabase().db;
    const stored = await db
      .select({ urlKey: pages.urlKey, n: sql<number>`count(*)::int` })
      .from(pages)
      .where(and(eq(pages.jobId, id), eq(pages.status, 'scraped')))
      .groupBy(pages.urlKey);
    expect(stored).toHaveLength(done.completed);
    expect(stored.every((s) => s.n === 1)).toBe(true);
    const charges = await db.select({ key: ledger.idempotencyKey, amount: ledger.amount }).from(ledger).where(eq(ledger.jobId, id));
    expect(charges).toHaveLength(done.completed);
    expect(charges.map((c) => c.key).sort()).toEqual(stored.map((s) => `crawl:${id}:${s.urlKey}`).sort());
    expect(charges.every((c) => c.amount === -1)).toBe(true);
  });

  it('continues as new at least twice and still crawls the right page set', async () => {
    const started = await crawlApi('/v1/crawl', { url: site.url, maxDepth: 4, ignoreSitemap: true, maxConcurrency: 4 });
    const id = started.body.id;
    const done = await waitForCrawl(id, { baseUrl: stack.apiUrl, timeoutMs: 120_000 });
    const expected = expectedCrawl(site.linksOf, { start: '/', maxDepth: 4, isBlocked: fixtureRobotsBlock });
    expect(done).toMatchObject({ status: 'completed', total: expected.reached.size, completed: expected.reached.size - ALWAYS_FAILING.length });
    expect(await runsOf(`crawl-${id}`)).toBeGreaterThanOrEqual(3);
    const history = await temporal.workflow.getHandle(`crawl-${id}`).fetchHistory();
    expect(history.events?.length ?? 0).toBeLessThan(1_000);
  });
});
