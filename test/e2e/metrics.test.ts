import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site';
import { api, fixture } from '../helpers/api';
import { waitForCrawl } from '../helpers/crawl';
import { sampleSum, scrapeMetrics } from '../helpers/prometheus-text';

let site: CrawlSite;
beforeAll(async () => {
  site = await startCrawlSite(inject('siteHosts')[1]!, { pagesPerSection: 8, pageDelayMs: 150 });
});
afterAll(async () => {
  await site?.close();
});

const apiMetrics = () => scrapeMetrics(inject('apiMetricsUrl'));
const workerMetrics = () => scrapeMetrics(inject('workerMetricsUrl'));

describe('Prometheus /metrics after a scrape and a crawl', () => {
  let crawlId: string;
  let completed: number;
  let inFlightDuringCrawl: number | undefined;

  beforeAll(async () => {
    expect((await api('/v1/scrape', { body: { url: fixture('/article') } })).status).toBe(200);
    expect((await api('/v1/no-such-route')).status).toBe(404);
    const started = await api('/v1/crawl', { body: { url: site.url, limit: 12, ignoreSitemap: true, maxConcurrency: 2 } });
    expect(started.status).toBe(200);
    crawlId = started.body.id;
    inFlightDuringCrawl = sampleSum(await apiMetrics(), 'wcs_jobs_in_flight', { team: inject('teamId'), kind: 'crawl' });
    const done = await waitForCrawl(crawlId, { timeoutMs: 90_000 });
    expect(done.status).toBe('completed');
    completed = done.completed;
    expect(completed).toBeGreaterThan(0);
  });

  it('the public port serves no metrics, with or without a key: they are on a port of their own', async () => {
    for (const headers of [{}, { authorization: `Bearer ${inject('apiKey')}` }] as Record<string, string>[]) {
      const res = await fetch(`${inject('apiUrl')}/metrics`, { headers });
      expect(res.status).toBe(404);
      const body = await res.text();
      expect(body).not.toContain('wcs_');
      expect(JSON.parse(body)).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
    const doc = (await (await fetch(`${inject('apiUrl')}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });

  it('the API counts requests by route pattern and status, with latency histograms, on its metrics port', async () => {
    const res = await fetch(inject('apiMetricsUrl'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const m = await apiMetrics();
    expect(sampleSum(m, 'wcs_http_requests_total', { method: 'POST', route: '/v1/scrape', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sampleSum(m, 'wcs_http_requests_total', { method: 'POST', route: '/v1/crawl', status: '200' })).toBeGreaterThanOrEqual(1);
    // Status polls count under the pattern, not one series per job id.
    expect(sampleSum(m, 'wcs_http_requests_total', { method: 'GET', route: '/v1/crawl/:id', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(m.some((s) => s.labels.route?.includes(crawlId))).toBe(false);
    expect(sampleSum(m, 'wcs_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sampleSum(m, 'wcs_http_request_duration_seconds_count', { method: 'POST', route: '/v1/scrape' })).toBeGreaterThanOrEqual(1);
    expect(sampleSum(m, 'wcs_http_request_duration_seconds_bucket', { method: 'POST', route: '/v1/scrape', le: '+Inf' })).toBeGreaterThanOrEqual(1);
  });

  it('the API reports work in flight per team and the task queues\' backlog', async () => {
    expect(inFlightDuringCrawl).toBeGreaterThanOrEqual(1);
    const m = await apiMetrics();
    const queues = ['http', 'browser', 'scrape'].map((name) => `${inject('queuePrefix')}-${name}`);
    for (const queue of queues) {
      for (const type of ['workflow', 'activity']) expect(sampleSum(m, 'wcs_task_queue_backlog', { queue, type })).toBeGreaterThanOrEqual(0);
    }
    // The crawl is over: its job is no longer in flight.
    expect(sampleSum(m, 'wcs_jobs_in_flight', { team: inject('teamId'), kind: 'crawl' }) ?? 0).toBe(0);
  });

  it('the worker counts pages scraped, credits charged and stage timings, and serves the Temporal SDK\'s own metrics', async () => {
    const m = await workerMetrics();
    expect(sampleSum(m, 'wcs_pages_scraped_total', { operation: 'crawl' })).toBeGreaterThanOrEqual(completed);
    expect(sampleSum(m, 'wcs_credits_charged_total', { operation: 'crawl' })).toBeGreaterThanOrEqual(completed);
    expect(sampleSum(m, 'wcs_page_stage_duration_seconds_count', { stage: 'fetch' })).toBeGreaterThanOrEqual(completed);
    expect(sampleSum(m, 'wcs_process_cpu_seconds_total')).toBeGreaterThan(0);
    // Temporal's core exporter, appended: activities this worker ran.
    expect(sampleSum(m, 'temporal_activity_execution_latency_seconds_count', { activity_type: 'crawlBatch' })).toBeGreaterThanOrEqual(1);
    expect(m.some((s) => s.name.startsWith('temporal_worker_task_slots_available'))).toBe(true);
  });

  it('the worker counts the pages its search indexer put in the local index', async () => {
    // The crawl's pages are indexed within a second or so; other stacks' indexers may take some.
    const deadline = Date.now() + 15_000;
    let indexed = 0;
    while (indexed === 0 && Date.now() < deadline) {
      indexed = sampleSum(await workerMetrics(), 'wcs_search_pages_indexed_total') ?? 0;
      if (indexed === 0) await new Promise((r) => setTimeout(r, 250));
    }
    expect(indexed).toBeGreaterThan(0);
  });

  it('the API counts the single scrapes its own scrape worker ran (eager starts), with their stage timings', async () => {
    const m = await apiMetrics();
    expect(sampleSum(m, 'wcs_pages_scraped_total', { operation: 'scrape' })).toBeGreaterThanOrEqual(1);
    expect(sampleSum(m, 'wcs_page_stage_duration_seconds_count', { stage: 'fetch' })).toBeGreaterThanOrEqual(1);
  });
});
