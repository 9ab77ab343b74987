import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/db/client';
import { waitFor } from '../../src/dev/child-process';
import { startCluster, type Cluster } from '../../src/dev/cluster/cluster';
import { setTeamLimits } from '../../src/limits/team-limits';
import { searchAttributeFlags } from '../../src/temporal/search-attributes';
import { auditCrawl } from '../chaos/crawl-audit';
import { startTreeSite, type ChaosSite } from '../chaos/chaos-site';
import { loadWcxb, type WcxbPage } from '../content/wcxb-corpus';
import { wordF1 } from '../content/word-f1';
import { createTeamWithKey } from '../helpers/accounts';
import { api } from '../helpers/api';
import { crawlBatchesByWorker } from '../helpers/crawl-workers';
import { sampleSum, scrapeMetrics } from '../helpers/prometheus-text';

/**
 * The production shape of docker-compose.yml, as `npm run cluster` runs it: Temporal on
 * Postgres, two API replicas, two HTTP workers and a browser worker, compiled, on Node 24.
 * Real pages (test/fixtures/wcxb: WCXB, Murrough Foley 2026, CC-BY-4.0) and a crawl site are
 * served from 127.0.0.2.
 */
const SITE_HOST = '127.0.0.2';
const CRAWL_PAGES = 40;
/** Two WCXB pages whose main content the pipeline finds well (documentation and service pages). */
const PAGES = loadWcxb(path.join(__dirname, '../fixtures/wcxb')).filter((p) => p.pageType === 'documentation' || p.pageType === 'service').slice(0, 2);

let dir: string;
let cluster: Cluster;
let site: ChaosSite;
let pageServer: http.Server;
let pageOrigin: string;
let database: Database;
let key: string;
let temporal: Client;

const pathOf = (page: WcxbPage) => new URL(page.url).pathname;

beforeAll(async () => {
  site = await startTreeSite(SITE_HOST, CRAWL_PAGES, 50);
  pageServer = http.createServer((req, res) => {
    const page = PAGES.find((p) => pathOf(p) === req.url);
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(page.html);
  });
  pageServer.listen(0, SITE_HOST);
  await once(pageServer, 'listening');
  pageOrigin = `http://${SITE_HOST}:${(pageServer.address() as AddressInfo).port}`;
  dir = mkdtempSync(path.join(os.tmpdir(), 'wcs-cluster-'));
  // Postgres runs as its own user (initdb refuses root), who must reach its folder inside this one.
  chmodSync(dir, 0o755);
  cluster = await startCluster({
    dir,
    throwaway: true,
    // Small batches, so both HTTP workers get some of the crawl.
    env: { ALLOW_PRIVATE_HOSTS: SITE_HOST, CRAWL_BATCH_SIZE: '2' },
    log: (m) => console.log(`[cluster] ${m}`),
  });
  database = connectDatabase(cluster.databaseUrl, 2);
  ({ key } = await createTeamWithKey(database.db, 'cluster-smoke', 1_000_000));
  temporal = new Client({ connection: await Connection.connect({ address: cluster.temporalAddress }) });
});

afterAll(async () => {
  await temporal?.connection.close();
  await database?.close();
  await cluster?.stop();
  await site?.close();
  pageServer?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the local production cluster', () => {
  it('runs the compiled service on the production Node, Temporal with the search attributes registered, and the UI', async () => {
    for (const member of [...cluster.apis, ...cluster.httpWorkers, ...cluster.browserWorkers]) {
      expect(readlinkSync(`/proc/${member.pid}/exe`)).toBe(cluster.node);
      expect(readFileSync(`/proc/${member.pid}/cmdline`, 'utf8')).toMatch(/dist\/src\/(api|worker)\/main\.js/);
    }
    const { customAttributes } = await temporal.connection.operatorService.listSearchAttributes({ namespace: 'default' });
    expect(Object.keys(customAttributes ?? {}).sort()).toEqual(expect.arrayContaining(searchAttributeFlags().map((f) => f.split('=')[0]!)));
    const ui = await fetch(cluster.uiUrl!);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('<html');
  });

  it('scrapes a real page through each API replica', async () => {
    for (const [i, apiUrl] of cluster.apiUrls.entries()) {
      const page = PAGES[i]!;
      const { status, body } = await api('/v1/scrape', { baseUrl: apiUrl, key, body: { url: `${pageOrigin}${pathOf(page)}`, formats: ['markdown', 'text'] } });
      expect(status, apiUrl).toBe(200);
      expect(wordF1(body.data.text, page.mainContent).f1, page.id).toBeGreaterThan(0.8);
    }
  });

  it('crawls the fixture site with pages processed by both HTTP workers, each page stored and charged once', async () => {
    const [first, second] = cluster.apiUrls;
    const started = await api('/v1/crawl', { baseUrl: first, key, body: { url: site.url, limit: CRAWL_PAGES, ignoreSitemap: true, maxConcurrency: 4 } });
    expect(started.status).toBe(200);
    const id = started.body.id as string;
    // Polled through the other replica: the job lives in Postgres, not in a replica.
    let status: { status: string; completed: number };
    for (;;) {
      status = (await api(`/v1/crawl/${id}?limit=1`, { baseUrl: second, key })).body;
      if (status.status !== 'scraping') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toMatchObject({ status: 'completed', completed: CRAWL_PAGES });
    expect(await auditCrawl(database.db, id, CRAWL_PAGES)).toEqual({ stored: CRAWL_PAGES, failed: 0, lost: 0, chargedTwice: 0, uncharged: 0 });
    const byWorker = await crawlBatchesByWorker(temporal, id);
    const httpWorkers = cluster.httpWorkers.map((w) => `${w.pid}@${os.hostname()}`);
    expect([...byWorker.keys()].sort()).toEqual(httpWorkers.sort());
    for (const worker of httpWorkers) expect(byWorker.get(worker), worker).toBeGreaterThan(0);
  });

  it('keeps one rate limit for a team across the replicas (counted in Postgres)', async () => {
    const { key: limitedKey, teamId: limited } = await createTeamWithKey(database.db, 'cluster-smoke-limited', 100);
    await setTeamLimits(database.db, limited, { requestsPerMinute: 4 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await api('/v1/team/credit-usage', { baseUrl: cluster.apiUrls[i % 2], key: limitedKey })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  // A render on a loaded machine may outlast the default 30 s; the test is about where the image is served from.
  it('serves a screenshot the browser worker took from the file store every process shares, through either replica', async () => {
    const { status, body } = await api('/v1/scrape', { baseUrl: cluster.apiUrls[1], key, body: { url: `${pageOrigin}${pathOf(PAGES[0]!)}`, formats: ['screenshot'], timeout: 120_000 } });
    expect(status).toBe(200);
    const shot = new URL(body.data.screenshot as string);
    for (const apiUrl of cluster.apiUrls) {
      const image = await fetch(`${apiUrl}${shot.pathname}${shot.search}`);
      expect(image.status, apiUrl).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
    }
  });

  it('serves metrics on each process\'s metrics port, and none on the public one', async () => {
    for (const [i, apiUrl] of cluster.apiUrls.entries()) {
      expect((await fetch(`${apiUrl}/metrics`)).status).toBe(404);
      const m = await scrapeMetrics(cluster.apis[i]!.metricsUrl);
      expect(sampleSum(m, 'wcs_http_requests_total', { method: 'POST', route: '/v1/scrape', status: '200' })).toBeGreaterThanOrEqual(1);
    }
    for (const worker of cluster.httpWorkers) expect(sampleSum(await scrapeMetrics(worker.metricsUrl), 'wcs_pages_scraped_total', { operation: 'crawl' })).toBeGreaterThan(0);
  });

  it('stops every process it started', async () => {
    const pids = [...cluster.apis, ...cluster.httpWorkers, ...cluster.browserWorkers, cluster.temporal].map((s) => s.pid!);
    const postmaster = Number(readFileSync(path.join(dir, 'postgres', 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    await cluster.stop();
    // pg_ctl returns once the server stopped serving; its postmaster may take a moment more to exit.
    const running = (pid: number) => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false; // gone
      }
    };
    await waitFor('every process gone', async () => ![...pids, postmaster].some(running), 15_000).catch(() => undefined);
    expect([...pids, postmaster].filter(running)).toEqual([]);
  });
});
