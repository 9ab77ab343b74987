import { Client, Connection } from '@temporalio/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { jobs } from '../../src/db/schema';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site';
import { api } from '../helpers/api';
import { waitForCrawl } from '../helpers/crawl';
import { testDatabase } from '../helpers/db';

/** The shared stack's workers reconcile every 2 s (RECONCILE_INTERVAL_SECONDS in the global setup). */
let site: CrawlSite;
let temporal: Client;
beforeAll(async () => {
  site = await startCrawlSite(inject('siteHosts')[0]!, { pagesPerSection: 40, pageDelayMs: 300 });
  temporal = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
});
afterAll(async () => {
  await site?.close();
  await temporal?.connection.close();
});

describe('a job whose workflow ended outside the service', () => {
  it('a crawl terminated through Temporal gets status failed and the reason, in Postgres and in GET /v1/crawl/:id', async () => {
    const started = await api('/v1/crawl', { body: { url: site.url, limit: 150, ignoreSitemap: true, maxConcurrency: 2 } });
    expect(started.status).toBe(200);
    const id: string = started.body.id;
    for (let completed = 0; completed < 2; ) {
      await new Promise((r) => setTimeout(r, 100));
      completed = (await api(`/v1/crawl/${id}`)).body.completed;
    }
    await temporal.workflow.getHandle(`crawl-${id}`).terminate('stopped by an operator in the Temporal UI');

    const ended = await waitForCrawl(id, { timeoutMs: 30_000 });
    expect(ended.status).toBe('failed');
    expect(ended.error).toMatch(/^The crawl job ended: its workflow terminated outside the service: stopped by an operator in the Temporal UI$/);
    expect(ended.completed).toBeGreaterThanOrEqual(2);

    const [row] = await testDatabase().db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: 'failed', errorCode: 'INTERNAL_ERROR', error: ended.error });
    expect(row!.finishedAt).toBeInstanceOf(Date);

    // Final: a later pass leaves it as it is.
    await new Promise((r) => setTimeout(r, 3_000));
    const again = await api(`/v1/crawl/${id}`);
    expect(again.body).toMatchObject({ status: 'failed', error: ended.error });
  });
});
