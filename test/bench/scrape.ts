/**
 * `npm run bench scrape`: the scrape path on a corpus of 60 generated, real-world-sized pages
 * (test/bench/corpus.ts) served on 127.0.0.1.
 *
 * 1. The processing pipeline in-process (processBody: clean, metadata, links, main content,
 *    markdown, text), fetch excluded: pages/s and MB/s; beside it the peer, @mozilla/readability
 *    + turndown on linkedom, called directly, as a ratio.
 * 2. The API end to end (POST /v1/scrape through Temporal, Postgres and the worker processes,
 *    as `npm start` runs them): p50/p95 latency at concurrency 1 and 16, HTTP and browser.
 * 3. The API's overhead over the same fetch + processing done in-process (HttpScraper.scrape),
 *    broken down from the workflows' Temporal histories.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { parseHostAllowlist } from '../../src/net/host-allowlist';
import { PublicUrlGate } from '../../src/net/public-url-gate';
import { GuardedFetcher } from '../../src/net/guarded-fetcher';
import { HttpScraper } from '../../src/scrape/http-scraper';
import { processBody } from '../../src/scrape/process/process-body';
import { scrapeOptionsSchema } from '../../src/scrape/scrape-options';
import { startFixtureServer } from '../fixtures/fixture-server';
import { startEnvironment } from '../helpers/environment';
import { benchCorpus, type CorpusPage } from './corpus';
import { readabilityMarkdown } from './peers/readability-markdown';

export const description =
  'scrape: in-process pipeline vs Readability+turndown (linkedom), and POST /v1/scrape p50/p95 at concurrency 1 and 16, HTTP and browser engines';

/** Passes over the corpus in-process; one is enough for 60 pages, and this machine is shared. */
const ROUNDS = 1;
const WARM_UP_PAGES = 5;
const { EventType } = temporal.api.enums.v1;
const OPTIONS = scrapeOptionsSchema.parse({});

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

/** Runs `fn` over every page `rounds` times after warming up on a few; returns each call's duration. */
async function timeEach(pages: CorpusPage[], rounds: number, fn: (page: CorpusPage) => unknown): Promise<{ durations: number[]; totalMs: number }> {
  for (const page of pages.slice(0, WARM_UP_PAGES)) await fn(page);
  const durations: number[] = [];
  const started = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const page of pages) {
      const t = performance.now();
      await fn(page);
      durations.push(performance.now() - t);
    }
  }
  return { durations, totalMs: performance.now() - started };
}

interface ApiRun {
  latencies: number[];
  scrapeIds: string[];
  failures: string[];
  timings: Record<string, number>[];
}

async function scrapeAll(apiUrl: string, key: string, urls: string[], engine: 'http' | 'browser', concurrency: number): Promise<ApiRun> {
  const run: ApiRun = { latencies: [], scrapeIds: [], failures: [], timings: [] };
  let next = 0;
  const client = async () => {
    while (next < urls.length) {
      const url = urls[next++]!;
      const started = performance.now();
      const response = await fetch(`${apiUrl}/v1/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        // A generous timeout: this measures latency, and a loaded machine must not turn it into 408s.
        body: JSON.stringify({ url, engine, timeout: 120_000 }),
      });
      const body = (await response.json()) as { data?: { metadata: { scrapeId: string; timing: Record<string, number> } }; code?: string };
      const elapsed = performance.now() - started;
      if (response.status !== 200 || !body.data) {
        run.failures.push(`${url}: HTTP ${response.status} ${body.code ?? ''}`);
        continue;
      }
      run.latencies.push(elapsed);
      run.scrapeIds.push(body.data.metadata.scrapeId);
      run.timings.push(body.data.metadata.timing);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return run;
}

type HistoryEvent = { eventType?: unknown; eventTime?: { seconds?: unknown; nanos?: number | null } | null };

function eventMs(e: HistoryEvent): number {
  return Number(e.eventTime?.seconds ?? 0) * 1000 + (e.eventTime?.nanos ?? 0) / 1e6;
}

/** Where a scrape workflow's time went, from its history: milliseconds per phase. */
const TASK_RUN = 'workflow task: run (local activity: fetch, process, store) + report';

async function workflowPhases(client: Client, scrapeId: string): Promise<Record<string, number>> {
  const history = await client.workflow.getHandle(`scrape-${scrapeId}`).fetchHistory();
  const events = (history.events ?? []) as HistoryEvent[];
  const at = (type: number, nth = 0) => {
    const matching = events.filter((e) => Number(e.eventType) === type);
    return matching[nth] ? eventMs(matching[nth]!) : NaN;
  };
  const t = {
    started: at(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED),
    wfTaskStarted: at(EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED),
    wfTaskCompleted: at(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED),
    completed: at(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED),
  };
  // The HTTP step is a local activity: it runs inside the one workflow task, which then completes the run.
  return {
    'workflow task: queue wait': t.wfTaskStarted - t.started,
    [TASK_RUN]: t.wfTaskCompleted - t.wfTaskStarted,
    'workflow total (started -> completed)': t.completed - t.started,
  };
}

function median(rows: Record<string, number>[], key: string): number {
  return percentile(
    rows.map((r) => r[key] ?? NaN).filter((v) => !Number.isNaN(v)),
    50,
  );
}

function machine(chromiumPath: string): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  let chromium = 'unknown';
  try {
    chromium = execFileSync(chromiumPath, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // reported as unknown
  }
  return `${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}, ${chromium}`;
}

export async function run(): Promise<void> {
  const corpus = benchCorpus(60);
  const sizes = corpus.map((p) => Buffer.byteLength(p.html));
  const totalMb = sizes.reduce((a, b) => a + b, 0) / 1e6;
  console.log(
    `corpus: ${corpus.length} pages, ${Math.round(Math.min(...sizes) / 1000)}-${Math.round(Math.max(...sizes) / 1000)} KB (median ${Math.round(percentile(sizes, 50) / 1000)} KB), ${totalMb.toFixed(1)} MB in all`,
  );

  const fixtures = await startFixtureServer(
    Object.fromEntries(corpus.map((p) => [p.path, (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(p.html)])),
  );
  const urlOf = (p: CorpusPage) => `${fixtures.url}${p.path}`;
  const bodies = new Map(corpus.map((p) => [p.path, Buffer.from(p.html)]));

  // 1. Processing in-process, and the peer.
  const stages: Record<string, number>[] = [];
  const ours = await timeEach(corpus, ROUNDS, async (p) => stages.push((await processBody(bodies.get(p.path)!, 'text/html; charset=utf-8', urlOf(p), OPTIONS)).timing));
  const peer = readabilityMarkdown();
  const theirs = await timeEach(corpus, ROUNDS, (p) => peer(p.html, urlOf(p)));
  const pagesPerSecond = (t: { totalMs: number }) => (corpus.length * ROUNDS) / (t.totalMs / 1000);
  const mbPerSecond = (t: { totalMs: number }) => (totalMb * ROUNDS) / (t.totalMs / 1000);
  console.log('\nprocessing in-process (fetch excluded), onlyMainContent on, all formats produced');
  console.log(`  ours (processBody)               ${pagesPerSecond(ours).toFixed(1)} pages/s  ${mbPerSecond(ours).toFixed(2)} MB/s  p50 ${ms(percentile(ours.durations, 50))}  p95 ${ms(percentile(ours.durations, 95))}`);
  console.log(`  Readability + turndown (linkedom) ${pagesPerSecond(theirs).toFixed(1)} pages/s  ${mbPerSecond(theirs).toFixed(2)} MB/s  p50 ${ms(percentile(theirs.durations, 50))}  p95 ${ms(percentile(theirs.durations, 95))}`);
  console.log(`  ratio ours / peer: ${(pagesPerSecond(ours) / pagesPerSecond(theirs)).toFixed(2)}x the peer's throughput`);
  const stageTotals = Object.fromEntries(['cleanMs', 'mainContentMs', 'convertMs'].map((k) => [k, stages.reduce((sum, t) => sum + (t[k] ?? 0), 0)]));
  const allStages = Object.values(stageTotals).reduce((a, b) => a + b, 0);
  console.log(`  our time by stage: ${Object.entries(stageTotals).map(([k, v]) => `${k.replace(/Ms$/, '')} ${Math.round((100 * v) / allStages)}%`).join(', ')} (convert = markdown + text)`);

  const env = await startEnvironment({ kind: 'bench', allowPrivateHosts: [`127.0.0.1:${fixtures.port}`], log: (m) => console.log(`  [setup] ${m}`) });
  const connection = await Connection.connect({ address: env.temporal.address });
  try {
    console.log(`\nmachine: ${machine(env.chromiumPath)}`);

    // Fetch + process in-process: what the API adds its overhead to.
    const fetcher = new GuardedFetcher(new PublicUrlGate(parseHostAllowlist(`127.0.0.1:${fixtures.port}`)), 10 * 1024 * 1024);
    const scraper = new HttpScraper(fetcher, 'wcs-bench', processBody);
    const direct = await timeEach(corpus, 1, (p) => scraper.scrape(urlOf(p), OPTIONS, Date.now() + 30_000));
    await fetcher.close();
    const directP50 = percentile(direct.durations, 50);
    console.log(`\nfetch + process in-process (HttpScraper.scrape): p50 ${ms(directP50)}  p95 ${ms(percentile(direct.durations, 95))}`);

    console.log('\nPOST /v1/scrape end to end (every corpus page once per row)');
    const urls = corpus.map(urlOf);
    const runs: Record<string, ApiRun> = {};
    for (const engine of ['http', 'browser'] as const) {
      for (const concurrency of [1, 16]) {
        const started = performance.now();
        const r = await scrapeAll(env.stack.apiUrl, env.team.key, urls, engine, concurrency);
        const seconds = (performance.now() - started) / 1000;
        runs[`${engine}/${concurrency}`] = r;
        console.log(
          `  ${engine.padEnd(7)} c=${String(concurrency).padEnd(2)}  p50 ${ms(percentile(r.latencies, 50)).padStart(9)}  p95 ${ms(percentile(r.latencies, 95)).padStart(9)}  ${(r.latencies.length / seconds).toFixed(2)} pages/s${r.failures.length ? `  FAILED ${r.failures.length}: ${r.failures.slice(0, 3).join('; ')}` : ''}`,
        );
      }
    }

    const serial = runs['http/1']!;
    const apiP50 = percentile(serial.latencies, 50);
    console.log(`\nAPI p50 overhead over fetch + process in-process (HTTP, c=1): ${ms(apiP50 - directP50)} (aim: < 25 ms)`);
    console.log(`API p50 over processing alone (fetch excluded): ${ms(apiP50 - percentile(ours.durations, 50))}`);

    const client = new Client({ connection });
    const phases = await Promise.all(serial.scrapeIds.map((id) => workflowPhases(client, id)));
    const stageTimes = serial.timings.map((t) => ({ 'in the activity: fetch': t.fetchMs ?? NaN, 'in the activity: processing': (t.cleanMs ?? 0) + (t.mainContentMs ?? 0) + (t.convertMs ?? 0) }));
    console.log('\nwhere the time of one HTTP scrape goes (medians, c=1):');
    const keys = Object.keys(phases[0] ?? {});
    for (const key of keys) console.log(`  ${key.padEnd(56)} ${ms(median(phases, key))}`);
    for (const key of Object.keys(stageTimes[0] ?? {})) console.log(`  ${key.padEnd(56)} ${ms(median(stageTimes, key))}`);
    const taskRun = median(phases, TASK_RUN);
    console.log(`  ${'in the task: the rest (page lookup, store + charge, SDK)'.padEnd(56)} ${ms(taskRun - median(stageTimes, 'in the activity: fetch') - median(stageTimes, 'in the activity: processing'))}`);
    console.log(`  ${'in the API around the workflow (auth, checks, job row, start, read)'.padEnd(56)} ${ms(apiP50 - median(phases, 'workflow total (started -> completed)'))}`);
  } finally {
    await connection.close();
    await env.stop();
    await fixtures.close();
  }
}
