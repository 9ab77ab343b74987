/**
 * `npm run bench scrape`: the scrape path, served on 127.0.0.1.
 *
 * 1. A small (~2 KB) page, as issue 18 measures it: p50/p99 of POST /v1/scrape (API, Temporal,
 *    Postgres, worker, as `npm start` runs them) at 1, 8, 32 and 128 closed-loop clients for
 *    BENCH_SCRAPE_SECONDS each, and scrapes/s accepted (refusals and 5xx counted), next to the
 *    same fetch + processing in-process (HttpScraper.scrape) and to the Temporal floor (a
 *    workflow of the same shape doing nothing, peers/temporal-floor) at the same concurrencies,
 *    with the CPU each process spends per scrape; then where the time of one scrape goes, from
 *    the workflows' Temporal histories.
 * 2. With BENCH_SCRAPE_CORPUS=1, 60 generated real-world-sized pages (test/bench/corpus.ts):
 *    the processing pipeline in-process (processBody) vs @mozilla/readability + turndown on
 *    linkedom, as a ratio, and POST /v1/scrape p50/p95 at concurrency 1 and 16, HTTP and browser.
 *
 * The API runs with its default queue bound and no rate limit, so the figure is the service's
 * speed, not the deployment's limits.
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
import { html, startFixtureServer } from '../fixtures/fixture-server';
import { startEnvironment, type Environment } from '../helpers/environment';
import { benchShape } from './bench-shape';
import { apiScrape, closedLoop, countAnswers, type Answer } from './closed-loop';
import { benchCorpus, type CorpusPage } from './corpus';
import { cpuMsPer, cpuSeconds, percentile, stackCpuGroups, table } from './measure';
import { readabilityMarkdown } from './peers/readability-markdown';
import { startTemporalFloor } from './peers/temporal-floor/temporal-floor';

export const description =
  'scrape: a 2 KB page through POST /v1/scrape at 1-128 clients (p50/p99, scrapes/s) vs the same fetch + processing in-process and the Temporal floor (the same shape of workflow doing nothing), CPU per scrape by process, and where one scrape\'s time goes; BENCH_SCRAPE_CORPUS=1 adds the 60-page corpus (pipeline vs Readability+turndown, HTTP and browser engines)';

/** Passes over the corpus in-process; one is enough for 60 pages, and this machine is shared. */
const ROUNDS = 1;
const WARM_UP_PAGES = 5;
const { EventType } = temporal.api.enums.v1;
const OPTIONS = scrapeOptionsSchema.parse({});
/** Closed-loop client counts, `BENCH_SCRAPE_CLIENTS=1,8` for fewer. */
const CLIENTS = (process.env.BENCH_SCRAPE_CLIENTS ?? '1,8,32,128').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SCRAPE_SECONDS ?? 10);
const WITH_CORPUS = process.env.BENCH_SCRAPE_CORPUS === '1';
/** Scrapes, one after another, whose histories the time breakdown reads. */
const BREAKDOWN_SCRAPES = 40;
/** Issue 18's goals. */
const GOAL_P50_MS = 25;
const GOAL_PER_SECOND = 100;

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

/** A ~2 KB page such as an agent scrapes: head metadata, a menu, an article, a footer. */
function smallPage(): string {
  const paragraph = (n: number) =>
    `<p>Paragraph ${n} of the keeper's log: the lamp was lit at dusk, the lens turned through the night and the fog signal sounded twice before dawn.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Keeper's log, 12 March</title>
<meta name="description" content="One night at the lighthouse, as the keeper wrote it down."></head>
<body><header><nav><a href="/">Home</a> <a href="/log">Log</a> <a href="/about">About</a></nav></header>
<main><article><h1>Keeper's log, 12 March</h1>${Array.from({ length: 9 }, (_, i) => paragraph(i + 1)).join('')}
<ul><li>Wind: north-west, force 5</li><li>Visibility: two miles</li><li>Vessels passed: 3</li></ul></article></main>
<footer><p>Lighthouse Docs. <a href="/contact">Contact</a></p></footer></body></html>`;
}

/** One closed-loop run's figures, with the CPU each process group spent per accepted call. */
interface LoadRun {
  p50: number;
  p99: number;
  perSecond: number;
  answers: ReturnType<typeof countAnswers>;
  cpuMs: Record<string, number>;
}

async function loadRun(clients: number, call: () => Promise<Answer>, groups: ReturnType<typeof stackCpuGroups>): Promise<LoadRun> {
  const before = cpuSeconds(groups);
  const run = await closedLoop(clients, SECONDS, call);
  const answers = countAnswers(run.answers);
  return {
    p50: percentile(answers.ok, 50),
    p99: percentile(answers.ok, 99),
    perSecond: answers.ok.length / run.seconds,
    answers,
    cpuMs: cpuMsPer(answers.ok.length, before, cpuSeconds(groups)),
  };
}

const totalOf = (cpu: Record<string, number>) => Object.values(cpu).reduce((a, b) => a + b, 0);

/**
 * One row per client count, over `SECONDS` each: our answers, the Temporal floor's (the same
 * shape of workflow doing nothing, see peers/temporal-floor) and the in-process pipeline's.
 */
async function smallPageLoad(env: Environment, api: () => Promise<Answer>, floor: () => Promise<Answer>, inProcess: () => Promise<Answer>): Promise<void> {
  const rows: (string | number)[][] = [];
  const floorRows: (string | number)[][] = [];
  const cpuRows: (string | number)[][] = [];
  const notes: string[] = [];
  const groups = stackCpuGroups(env);
  for (const clients of CLIENTS) {
    const ours = await loadRun(clients, api, groups);
    const bottom = await loadRun(clients, floor, groups);
    const theirs = await loadRun(clients, inProcess, groups);
    rows.push([
      clients,
      ours.p50.toFixed(1),
      ours.p99.toFixed(1),
      ours.perSecond.toFixed(1),
      ours.answers.refused.length,
      ours.answers.serverErrors,
      ours.answers.other,
      theirs.p50.toFixed(1),
      theirs.p99.toFixed(1),
      theirs.perSecond.toFixed(1),
      (ours.p50 / theirs.p50).toFixed(1),
      (ours.perSecond / theirs.perSecond).toFixed(2),
    ]);
    floorRows.push([
      clients,
      bottom.p50.toFixed(1),
      bottom.p99.toFixed(1),
      bottom.perSecond.toFixed(1),
      (ours.p50 / bottom.p50).toFixed(2),
      (ours.perSecond / bottom.perSecond).toFixed(2),
      bottom.cpuMs.temporal!.toFixed(1),
      totalOf(bottom.cpuMs).toFixed(1),
    ]);
    cpuRows.push([clients, ...Object.values(ours.cpuMs).map((v) => v.toFixed(1)), totalOf(ours.cpuMs).toFixed(1)]);
    if (clients === CLIENTS[0]) {
      notes.push(
        `${clients} client: API p50 ${ms(ours.p50)} = ${(ours.p50 / GOAL_P50_MS).toFixed(2)}x the goal of ${GOAL_P50_MS} ms (at most 1 meets it); the Temporal floor's p50 ${ms(bottom.p50)}, the in-process pipeline's ${ms(theirs.p50)}`,
      );
    }
    if (clients === CLIENTS[CLIENTS.length - 1]) {
      notes.push(
        `saturation, ${clients} clients: ${ours.perSecond.toFixed(1)} scrapes/s accepted = ${(ours.perSecond / GOAL_PER_SECOND).toFixed(2)}x the goal of ${GOAL_PER_SECOND}/s (at least 1 meets it), ${(ours.perSecond / bottom.perSecond).toFixed(2)}x the Temporal floor's ${bottom.perSecond.toFixed(1)}/s and ${(ours.perSecond / theirs.perSecond).toFixed(2)}x the in-process pipeline's ${theirs.perSecond.toFixed(1)}/s; refused (503/429): ${ours.answers.refused.length}, other 5xx: ${ours.answers.serverErrors}, other failures: ${ours.answers.other}`,
      );
    }
  }
  table(
    ['clients', 'API p50 ms', 'API p99 ms', 'API scrapes/s', 'refused 503/429', 'other 5xx', 'other failed', 'in-process p50 ms', 'in-process p99 ms', 'in-process /s', 'p50 API / in-process', 'scrapes/s API / in-process'],
    rows,
  );
  console.log('\nthe Temporal floor: a workflow of the same shape doing nothing, started eagerly by a client in the worker\'s process, on the same Temporal server:');
  table(['clients', 'floor p50 ms', 'floor p99 ms', 'floor workflows/s', 'p50 API / floor', 'scrapes/s API / floor', 'Temporal CPU ms per floor workflow', 'all CPU ms per floor workflow'], floorRows);
  for (const note of notes) console.log(note);
  console.log('\nCPU milliseconds per accepted scrape, by process (from /proc; both cores busy means scrapes/s is about 2,000 over the total):');
  table(['clients', ...Object.keys(groups), 'total'], cpuRows);
}

/** Where the time of one HTTP scrape goes: medians over the Temporal histories and stage timings of `serial`. */
async function printBreakdown(client: Client, serial: ApiRun): Promise<void> {
  const apiP50 = percentile(serial.latencies, 50);
  const phases = await Promise.all(serial.scrapeIds.map((id) => workflowPhases(client, id)));
  const stageTimes = serial.timings.map((t) => ({ 'in the activity: fetch': t.fetchMs ?? NaN, 'in the activity: processing': (t.cleanMs ?? 0) + (t.mainContentMs ?? 0) + (t.convertMs ?? 0) }));
  console.log(`where the time of one HTTP scrape goes (medians of ${serial.latencies.length} scrapes one after another; their p50 end to end ${ms(apiP50)}):`);
  for (const key of Object.keys(phases[0] ?? {})) console.log(`  ${key.padEnd(68)} ${ms(median(phases, key))}`);
  for (const key of Object.keys(stageTimes[0] ?? {})) console.log(`  ${key.padEnd(68)} ${ms(median(stageTimes, key))}`);
  const taskRun = median(phases, TASK_RUN);
  console.log(`  ${'in the task: the rest (page lookup, store + charge, SDK)'.padEnd(68)} ${ms(taskRun - median(stageTimes, 'in the activity: fetch') - median(stageTimes, 'in the activity: processing'))}`);
  console.log(`  ${'in the API around the workflow (auth, checks, job row, start, read)'.padEnd(68)} ${ms(apiP50 - median(phases, 'workflow total (started -> completed)'))}`);
}

/** The processing pipeline in-process (fetch excluded) vs the peer, on the corpus. */
async function corpusProcessing(corpus: CorpusPage[], urlOf: (p: CorpusPage) => string): Promise<number> {
  const sizes = corpus.map((p) => Buffer.byteLength(p.html));
  const totalMb = sizes.reduce((a, b) => a + b, 0) / 1e6;
  console.log(
    `\ncorpus: ${corpus.length} pages, ${Math.round(Math.min(...sizes) / 1000)}-${Math.round(Math.max(...sizes) / 1000)} KB (median ${Math.round(percentile(sizes, 50) / 1000)} KB), ${totalMb.toFixed(1)} MB in all`,
  );
  const bodies = new Map(corpus.map((p) => [p.path, Buffer.from(p.html)]));
  const stages: Record<string, number>[] = [];
  const ours = await timeEach(corpus, ROUNDS, async (p) => stages.push((await processBody(bodies.get(p.path)!, 'text/html; charset=utf-8', urlOf(p), OPTIONS)).timing));
  const peer = readabilityMarkdown();
  const theirs = await timeEach(corpus, ROUNDS, (p) => peer(p.html, urlOf(p)));
  const pagesPerSecond = (t: { totalMs: number }) => (corpus.length * ROUNDS) / (t.totalMs / 1000);
  const mbPerSecond = (t: { totalMs: number }) => (totalMb * ROUNDS) / (t.totalMs / 1000);
  console.log('processing in-process (fetch excluded), onlyMainContent on, all formats produced');
  console.log(`  ours (processBody)               ${pagesPerSecond(ours).toFixed(1)} pages/s  ${mbPerSecond(ours).toFixed(2)} MB/s  p50 ${ms(percentile(ours.durations, 50))}  p95 ${ms(percentile(ours.durations, 95))}`);
  console.log(`  Readability + turndown (linkedom) ${pagesPerSecond(theirs).toFixed(1)} pages/s  ${mbPerSecond(theirs).toFixed(2)} MB/s  p50 ${ms(percentile(theirs.durations, 50))}  p95 ${ms(percentile(theirs.durations, 95))}`);
  console.log(`  ratio ours / peer: ${(pagesPerSecond(ours) / pagesPerSecond(theirs)).toFixed(2)}x the peer's throughput`);
  const stageTotals = Object.fromEntries(['cleanMs', 'mainContentMs', 'convertMs'].map((k) => [k, stages.reduce((sum, t) => sum + (t[k] ?? 0), 0)]));
  const allStages = Object.values(stageTotals).reduce((a, b) => a + b, 0);
  console.log(`  our time by stage: ${Object.entries(stageTotals).map(([k, v]) => `${k.replace(/Ms$/, '')} ${Math.round((100 * v) / allStages)}%`).join(', ')} (convert = markdown + text)`);
  return percentile(ours.durations, 50);
}

/** The corpus through the API, HTTP and browser engines, next to the same fetch + process in-process. */
async function corpusEndToEnd(apiUrl: string, key: string, client: Client, scraper: HttpScraper, corpus: CorpusPage[], urlOf: (p: CorpusPage) => string, processingP50: number): Promise<void> {
  const direct = await timeEach(corpus, 1, (p) => scraper.scrape(urlOf(p), OPTIONS, Date.now() + 30_000));
  const directP50 = percentile(direct.durations, 50);
  console.log(`\ncorpus: fetch + process in-process (HttpScraper.scrape): p50 ${ms(directP50)}  p95 ${ms(percentile(direct.durations, 95))}`);
  console.log('corpus: POST /v1/scrape end to end (every corpus page once per row)');
  const urls = corpus.map(urlOf);
  const runs: Record<string, ApiRun> = {};
  for (const engine of ['http', 'browser'] as const) {
    for (const concurrency of [1, 16]) {
      const started = performance.now();
      const r = await scrapeAll(apiUrl, key, urls, engine, concurrency);
      const seconds = (performance.now() - started) / 1000;
      runs[`${engine}/${concurrency}`] = r;
      console.log(
        `  ${engine.padEnd(7)} c=${String(concurrency).padEnd(2)}  p50 ${ms(percentile(r.latencies, 50)).padStart(9)}  p95 ${ms(percentile(r.latencies, 95)).padStart(9)}  ${(r.latencies.length / seconds).toFixed(2)} pages/s${r.failures.length ? `  FAILED ${r.failures.length}: ${r.failures.slice(0, 3).join('; ')}` : ''}`,
      );
    }
  }
  const serial = runs['http/1']!;
  const apiP50 = percentile(serial.latencies, 50);
  console.log(`corpus: API p50 overhead over fetch + process in-process (HTTP, c=1): ${ms(apiP50 - directP50)}; over processing alone (fetch excluded): ${ms(apiP50 - processingP50)}\n`);
  await printBreakdown(client, serial);
}

export async function run(): Promise<void> {
  const corpus = WITH_CORPUS ? benchCorpus(60) : [];
  const page = smallPage();
  const fixtures = await startFixtureServer(
    {
      '/small': (_req, res) => html(res, page),
      ...Object.fromEntries(corpus.map((p) => [p.path, (_req, res) => html(res, p.html)] as const)),
    },
    '127.0.0.1',
    { keepAliveTimeoutMs: 5_000 },
  );
  const urlOf = (p: CorpusPage) => `${fixtures.url}${p.path}`;
  const smallUrl = `${fixtures.url}/small`;
  const processingP50 = WITH_CORPUS ? await corpusProcessing(corpus, urlOf) : NaN;

  const env = await startEnvironment({
    kind: 'bench',
    allowPrivateHosts: [`127.0.0.1:${fixtures.port}`],
    shape: benchShape(),
    log: (m) => console.log(`  [setup] ${m}`),
  });
  const connection = await Connection.connect({ address: env.temporal.address });
  const fetcher = new GuardedFetcher(new PublicUrlGate(parseHostAllowlist(`127.0.0.1:${fixtures.port}`)), 10 * 1024 * 1024);
  const scraper = new HttpScraper(fetcher, 'wcs-bench', processBody);
  try {
    console.log(`\nmachine: ${machine(env.chromiumPath)}; on the ${benchShape()}${env.cluster ? ` (API replicas and workers on ${env.cluster.node})` : ''}`);
    console.log(
      `\nsmall page: ${(Buffer.byteLength(page) / 1024).toFixed(1)} KB, default scrape options; ${SECONDS} s per row of closed-loop clients (a refused client waits Retry-After); API with default settings, no rate limit`,
    );
    const inProcess = async (): Promise<Answer> => {
      const started = performance.now();
      const status = await scraper.scrape(smallUrl, OPTIONS, Date.now() + 30_000).then(
        () => 200,
        () => 500,
      );
      return { status, at: started, ms: performance.now() - started, retryAfter: 0 };
    };
    // Calls go round the API replicas, as a load balancer in front of them would send them.
    let next = 0;
    const api = () => apiScrape(env.apiUrls[next++ % env.apiUrls.length]!, env.team.key, smallUrl);
    // Warm-up, so neither side is measured with a cold JIT, pool or connection.
    await closedLoop(8, 2, api);
    await closedLoop(8, 2, inProcess);
    const client = new Client({ connection });
    // The breakdown first, on a quiet stack: the load rows leave work behind (vacuum, history).
    await printBreakdown(client, await scrapeAll(env.stack.apiUrl, env.team.key, Array<string>(BREAKDOWN_SCRAPES).fill(smallUrl), 'http', 1));
    console.log('');
    const floor = await startTemporalFloor(env.temporal.address);
    try {
      await closedLoop(8, 2, floor.call);
      await smallPageLoad(env, api, floor.call, inProcess);
    } finally {
      await floor.close();
    }
    if (WITH_CORPUS) await corpusEndToEnd(env.stack.apiUrl, env.team.key, client, scraper, corpus, urlOf, processingP50);
  } finally {
    await fetcher.close();
    await connection.close();
    await env.stop();
    await fixtures.close();
  }
}
