/**
 * `npm run bench overload`: the figures of fairness and backpressure, through the API as
 * `npm start` runs it, with the default limits.
 *
 * 1. Fairness: team B's scrape latency (p50) idle, then while team A crawls a generated site
 *    (BENCH_OVERLOAD_PAGES, default 2,000 pages) at `maxConcurrency: 50`; the target is a ratio
 *    of at most 2.
 * 2. Backpressure: BENCH_OVERLOAD_CLIENTS (default 128) clients scrape one small page for
 *    BENCH_OVERLOAD_SECONDS (default 30), each waiting `Retry-After` when refused; the targets are
 *    p99 of accepted scrapes at most 3 s and refusals within 100 ms. The clients run in
 *    BENCH_OVERLOAD_CLIENT_THREADS (default 4) threads; before the phase, the same clients' burst
 *    at a server that only refuses gives their own floor for the phase's first second.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectDatabase } from '../../src/db/client';
import { LIMIT_WINDOW_MS } from '../../src/limits/loop-delay-limit';
import { LoopStallTimer } from '../../src/limits/loop-stall-timer';
import { html, startFixtureServer } from '../fixtures/fixture-server';
import { createTeamWithKey } from '../helpers/accounts';
import { sampleSum, scrapeMetrics } from '../helpers/prometheus-text';
import { startEnvironment, type Environment } from '../helpers/environment';
import { clientsInThreads } from './client-threads';
import { apiScrape, countAnswers } from './closed-loop';
import { machine, percentile, table } from './measure';
import { startGeneratedSite } from './sites/generated-site';

export const description =
  "overload: team B's scrape p50 idle vs while team A crawls at maxConcurrency 50 (fairness), and N clients scraping at once: accepted p50/p99, refusals' latency (backpressure)";

const PAGES = Number(process.env.BENCH_OVERLOAD_PAGES ?? 2_000);
const SAMPLES = Number(process.env.BENCH_OVERLOAD_SAMPLES ?? 40);
const CLIENTS = Number(process.env.BENCH_OVERLOAD_CLIENTS ?? 128);
const SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 30);
/** Threads the backpressure phase's clients run in (see clientsInThreads). */
const CLIENT_THREADS = Number(process.env.BENCH_OVERLOAD_CLIENT_THREADS ?? 4);
const SCRAPE_OPTIONS = { formats: ['markdown'] };
/** Bursts at the refusing server that make the clients' floor. */
const FLOOR_BURSTS = 3;

const scrape = (env: Environment, key: string, url: string) => apiScrape(env.stack.apiUrl, key, url, SCRAPE_OPTIONS);

/** Team B's latencies, one scrape after another, `SAMPLES` of them or until `stop` says so. */
async function sampleLatencies(env: Environment, key: string, url: string, stop: () => boolean = () => false): Promise<number[]> {
  const latencies: number[] = [];
  while (latencies.length < SAMPLES && !stop()) {
    const answer = await scrape(env, key, url);
    if (answer.status === 200) latencies.push(answer.ms);
  }
  return latencies;
}

async function crawlStatus(env: Environment, id: string): Promise<{ status: string; completed: number }> {
  const response = await fetch(`${env.stack.apiUrl}/v1/crawl/${id}`, { headers: { authorization: `Bearer ${env.team.key}` } });
  return (await response.json()) as { status: string; completed: number };
}

async function fairness(env: Environment, teamB: string, small: string): Promise<void> {
  const site = await startGeneratedSite('127.0.0.2', PAGES);
  try {
    await sampleLatencies(env, teamB, small); // warm-up
    const idle = await sampleLatencies(env, teamB, small);
    const started = await fetch(`${env.stack.apiUrl}/v1/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.team.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: site.url, limit: PAGES, maxDepth: 100, ignoreSitemap: true, maxConcurrency: 50, scrapeOptions: { formats: ['markdown'] } }),
    });
    const { id } = (await started.json()) as { id: string };
    let crawling = true;
    const watcher = (async () => {
      while ((await crawlStatus(env, id)).status === 'scraping') await sleep(500);
      crawling = false;
    })();
    const busy = await sampleLatencies(env, teamB, small, () => !crawling);
    await watcher;
    const done = await crawlStatus(env, id);
    const p50 = (v: number[]) => percentile(v, 50);
    table(
      ['team B scrapes', 'samples', 'p50 ms', 'p95 ms'],
      [
        ['idle', idle.length, p50(idle).toFixed(0), percentile(idle, 95).toFixed(0)],
        [`while team A crawls ${PAGES} pages at maxConcurrency 50`, busy.length, p50(busy).toFixed(0), percentile(busy, 95).toFixed(0)],
      ],
    );
    console.log(`ratio of p50s: ${(p50(busy) / p50(idle)).toFixed(2)} (target <= 2); team A's crawl: ${done.status}, ${done.completed} pages`);
  } finally {
    await site.close();
  }
}

/** The API's count of windows (LIMIT_WINDOW_MS), all of them and those whose event loop stalled longer than each of `STALL_BOUNDS_MS`. */
async function apiStallWindows(env: Environment): Promise<number[]> {
  const samples = await scrapeMetrics(env.stack.apiMetricsUrl);
  const bucket = (le: string) => sampleSum(samples, 'wcs_scrape_replica_loop_stall_seconds_bucket', { le }) ?? 0;
  const all = bucket('+Inf');
  return [all, ...STALL_BOUNDS_MS.map((ms) => all - bucket(String(ms / 1000)))];
}

/** Stall lengths the report counts windows past; each is one of the API histogram's bucket bounds. */
const STALL_BOUNDS_MS = [25, 50, 100];

/**
 * How long the API took over its refusals (the `ms` of its request log lines for 503 and 429),
 * from reading the request to its answer: what the client sees beyond this is waiting for a
 * core and for either event loop.
 */
function serverSideRefusals(env: Environment, since: number): number[] {
  return readFileSync(path.join(env.logDir, 'api.log'), 'utf8')
    .split('\n')
    .slice(since)
    .flatMap((line) => {
      if (!line.includes('"msg":"request"')) return [];
      const entry = JSON.parse(line) as { status: number; ms: number; path: string };
      return entry.path === '/v1/scrape' && (entry.status === 503 || entry.status === 429) ? [entry.ms] : [];
    });
}

const logLines = (env: Environment) => readFileSync(path.join(env.logDir, 'api.log'), 'utf8').split('\n').length - 1;

/**
 * The clients' own floor for a burst: CLIENTS requests at once, on new connections, from the same
 * threads, to a server in this process that answers each with a refusal and does nothing else.
 * The phase's first second is such a burst, at a service that also starts the scrapes it admits.
 */
async function burstFloor(): Promise<number[]> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ success: false, code: 'SERVICE_UNAVAILABLE', error: 'refused' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const bursts: number[] = [];
    for (let i = 0; i < FLOOR_BURSTS; i++) {
      const { answers } = await clientsInThreads(CLIENT_THREADS, { apiUrl, key: 'none', url: 'http://example.com/', options: SCRAPE_OPTIONS, clients: CLIENTS, seconds: 0 });
      bursts.push(...answers.map((a) => a.ms));
    }
    return bursts;
  } finally {
    server.close();
  }
}

async function backpressure(env: Environment, teamB: string, small: string): Promise<void> {
  const floor = await burstFloor();
  // A refusal's time is mostly waiting for an event loop: the API's, then a client thread's,
  // which reads the answer. Both loops' stalls are reported beside the latencies.
  const apiBefore = await apiStallWindows(env);
  const logged = logLines(env);
  const benchWindows: number[] = [];
  const benchStalls = new LoopStallTimer(LIMIT_WINDOW_MS, (ms) => benchWindows.push(ms));
  const { answers, windows: clientWindows, seconds } = await clientsInThreads(CLIENT_THREADS, {
    apiUrl: env.stack.apiUrl,
    key: teamB,
    url: small,
    options: SCRAPE_OPTIONS,
    clients: CLIENTS,
    seconds: SECONDS,
  });
  benchStalls.stop();
  const apiWindows = (await apiStallWindows(env)).map((n, i) => n - apiBefore[i]!);
  const { ok: accepted, refused } = countAnswers(answers);
  // Every client opens its connection in the first second, all at once, on a loaded machine;
  // past it, they reuse them (keep-alive), as an SDK does.
  const firstAt = Math.min(...answers.map((a) => a.at));
  const first = countAnswers(answers.filter((a) => a.at - firstAt < 1_000));
  const later = countAnswers(answers.filter((a) => a.at - firstAt >= 1_000));
  const other = answers.filter((a) => ![200, 429, 503].includes(a.status));
  const row = (name: string, v: number[]) => [name, v.length, percentile(v, 50).toFixed(0), percentile(v, 99).toFixed(0), Math.max(0, ...v).toFixed(0)];
  table(['answers', 'count', 'p50 ms', 'p99 ms', 'max ms'], [
    row('accepted (200)', accepted),
    row('refused (503/429)', refused),
    row('refused, in the first second (clients connecting at once)', first.refused),
    row('refused, past the first second (connections open)', later.refused),
    row('refused, in the API (its request log)', serverSideRefusals(env, logged)),
    row(`the clients' floor: ${CLIENTS} at once at a server that only refuses (${FLOOR_BURSTS} bursts before the phase)`, floor),
  ]);
  console.log(
    `${CLIENTS} clients in ${CLIENT_THREADS} threads for ${SECONDS} s: ${(accepted.length / seconds).toFixed(1)} scrapes/s accepted; other answers: ${other.length}${other.length ? ` (${[...new Set(other.map((a) => a.status))].join(', ')})` : ''}; targets: accepted p99 <= 3000 ms, refusals within 100 ms`,
  );
  const share = (count: number, of: number) => `${((100 * count) / Math.max(1, of)).toFixed(1)}%`;
  const stallRow = (name: string, windows: number[]) => [name, windows.length, ...STALL_BOUNDS_MS.map((ms) => share(windows.filter((w) => w > ms).length, windows.length))];
  table(
    [`event loop, ${LIMIT_WINDOW_MS} ms windows`, 'windows', ...STALL_BOUNDS_MS.map((ms) => `stalled > ${ms} ms`)],
    [
      ['the API', apiWindows[0]!, ...apiWindows.slice(1).map((n) => share(n, apiWindows[0]!))],
      stallRow(`the client threads (${CLIENT_THREADS})`, clientWindows),
      stallRow('this bench process (the page)', benchWindows),
    ],
  );
  console.log(`longest stall: the client threads ${Math.max(0, ...clientWindows).toFixed(0)} ms, this bench process ${Math.max(0, ...benchWindows).toFixed(0)} ms`);
}

export async function run(): Promise<void> {
  console.log(machine());
  const small = await startFixtureServer(
    { '/small': (_req, res) => html(res, '<html><head><title>Small</title></head><body><main><h1>Small page</h1><p>A few words to scrape.</p></main></body></html>') },
    '127.0.0.3',
  );
  const env = await startEnvironment({ kind: 'bench', allowPrivateHosts: ['127.0.0.2', '127.0.0.3'], log: () => {} });
  try {
    const db = connectDatabase(env.databaseUrl, 1);
    const teamB = await createTeamWithKey(db.db, 'bench-b', 1_000_000).finally(() => db.close());
    const smallUrl = `${small.url}/small`;
    console.log('\nfairness:');
    await fairness(env, teamB.key, smallUrl);
    console.log('\nbackpressure:');
    await backpressure(env, teamB.key, smallUrl);
  } finally {
    await env.stop();
    await small.close();
  }
}
