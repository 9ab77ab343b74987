/**
 * `npm run bench screenshot`: POST /v1/screenshot against Playwright driven directly with the
 * same Chromium (a new context per capture), on one fixture page, at concurrency 1 and 4; then
 * the browser worker's memory (the worker and its Chromium processes) over 300 captures.
 */
import pino from 'pino';
import { chromium, type Browser } from 'playwright';
import { BrowserPool } from '../../src/browser/browser-pool';
import { BrowserScraper } from '../../src/browser/browser-scraper';
import { CHROMIUM_ARGS } from '../../src/browser/launch-args';
import { NetworkActivity } from '../../src/browser/network-activity';
import { FilteringProxy } from '../../src/net/filtering-proxy';
import { parseHostAllowlist } from '../../src/net/host-allowlist';
import { PublicUrlGate } from '../../src/net/public-url-gate';
import { processBody } from '../../src/scrape/process/process-body';
import { startFixtureServer } from '../fixtures/fixture-server';
import { screenshotPages } from '../fixtures/screenshot-pages';
import { startEnvironment } from '../helpers/environment';
import { treeMemory } from '../helpers/processes';

export const description =
  'POST /v1/screenshot (API → Temporal → browser worker → Chromium → image store), and the worker\'s browser path alone, vs Playwright with the same Chromium, new context per capture; worker memory over 300 captures';

/** Captures per contender and concurrency, run in interleaved blocks so drifting machine load hits all alike. */
const RUNS = { 1: { blocks: 4, perBlock: 10 }, 4: { blocks: 4, perBlock: 20 } } as const;
const MEMORY_CAPTURES = 300;
const WARMUP = 4;

interface Series {
  capturesPerSecond: number;
  p50: number;
  p95: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Latencies (ms) and elapsed seconds of blocks of captures, `concurrency` at a time. */
class Recorder {
  private readonly latencies: number[] = [];
  private seconds = 0;

  constructor(private readonly capture: () => Promise<void>) {}

  async block(count: number, concurrency: number, onDone: (n: number) => void = () => {}): Promise<void> {
    let next = 0;
    let done = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          next++;
          const t = performance.now();
          await this.capture();
          this.latencies.push(performance.now() - t);
          onDone(++done);
        }
      }),
    );
    this.seconds += (performance.now() - started) / 1000;
  }

  series(): Series {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return { capturesPerSecond: sorted.length / this.seconds, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
  }
}

/** The peer: what a caller writes with Playwright alone, waiting for the same network quiet. */
async function peerCapture(browser: Browser, url: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const network = new NetworkActivity(page);
    await page.goto(url, { waitUntil: 'load' });
    await network.quiet(5_000);
    await page.screenshot({ type: 'png' });
  } finally {
    await context.close();
  }
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const memory = (m: { rss: number; pss: number }) => `RSS ${mb(m.rss)} / PSS ${mb(m.pss)}`;
const ms = (n: number) => `${Math.round(n)} ms`;

export async function run(): Promise<void> {
  const fixtures = await startFixtureServer(screenshotPages());
  const allow = `127.0.0.1:${fixtures.port}`;
  const env = await startEnvironment({ kind: 'bench', allowPrivateHosts: [allow], log: (m) => console.log(`[bench] ${m}`) });
  const peer = await chromium.launch({ executablePath: env.chromiumPath, headless: true, args: CHROMIUM_ARGS });
  // The worker's browser path alone (pool, per-job proxy, settle, capture), without API, Temporal and storage.
  const gate = new PublicUrlGate(parseHostAllowlist(allow));
  const defaultProxy = await FilteringProxy.start(gate);
  const pool = new BrowserPool({ executablePath: env.chromiumPath, maxPages: 4, restartAfterPages: 500, defaultProxy: defaultProxy.url, logger: pino({ level: 'silent' }) });
  const scraper = new BrowserScraper(gate, pool, { userAgent: 'web-context-service bench', maxCaptureHeight: 16_384, process: processBody, maxBytes: 10 * 1024 * 1024 });
  try {
    const url = `${fixtures.url}/shot/colors`;
    const stages = { navigationMs: 0, waitMs: 0, captureMs: 0, queuedMs: 0, totalMs: 0 };
    let timed = 0;
    const service = async () => {
      const response = await fetch(`${env.stack.apiUrl}/v1/screenshot`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.team.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      const body = (await response.json()) as { success: boolean; data: { timing: typeof stages } };
      if (!body.success) throw new Error(`screenshot failed: ${JSON.stringify(body)}`);
      for (const k of Object.keys(stages) as (keyof typeof stages)[]) stages[k] += body.data.timing[k];
      timed++;
    };
    const setup = { mobile: false, skipTlsVerification: false, blockAds: true, waitFor: 0, loadAllResources: true };
    const inProcess = async () => void (await scraper.screenshot(url, { format: 'png', fullPage: false, setup }, Date.now() + 30_000));
    const direct = () => peerCapture(peer, url);
    for (const capture of [service, inProcess, direct]) await new Recorder(capture).block(WARMUP, 1);
    for (const k of Object.keys(stages) as (keyof typeof stages)[]) stages[k] = 0;
    timed = 0;

    console.log('| concurrency | service captures/s | p50 | p95 | browser path alone: captures/s | p50 | Playwright captures/s | p50 | p95 | service / Playwright, p50 | throughput |');
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const [concurrency, { blocks, perBlock }] of Object.entries(RUNS)) {
      const c = Number(concurrency);
      const [ours, alone, theirs] = [new Recorder(service), new Recorder(inProcess), new Recorder(direct)];
      for (let b = 0; b < blocks; b++) for (const r of [ours, alone, theirs]) await r.block(perBlock, c);
      const [s, a, p] = [ours.series(), alone.series(), theirs.series()];
      console.log(
        `| ${c} | ${s.capturesPerSecond.toFixed(2)} | ${ms(s.p50)} | ${ms(s.p95)} | ${a.capturesPerSecond.toFixed(2)} | ${ms(a.p50)} | ${p.capturesPerSecond.toFixed(2)} | ${ms(p.p50)} | ${ms(p.p95)} | ${(s.p50 / p.p50).toFixed(2)}x | ${(p.capturesPerSecond / s.capturesPerSecond).toFixed(2)}x |`,
      );
    }
    const avg = (k: keyof typeof stages) => ms(stages[k] / timed);
    console.log(`\nservice stages, mean per capture: queued ${avg('queuedMs')}, navigation ${avg('navigationMs')}, settle ${avg('waitMs')}, capture ${avg('captureMs')}, total in worker ${avg('totalMs')}`);
    await pool.close();

    // Memory: the worker process and every Chromium process under it, sampled while 300 captures run.
    const workerPid = env.stack.worker.child.pid!;
    const peak = treeMemory(workerPid);
    const sample = () => {
      const now = treeMemory(workerPid);
      peak.rss = Math.max(peak.rss, now.rss);
      peak.pss = Math.max(peak.pss, now.pss);
      return now;
    };
    const sampler = setInterval(sample, 250);
    const checkpoints: string[] = [`0: ${memory(sample())}`];
    const started = performance.now();
    await new Recorder(service).block(MEMORY_CAPTURES, 4, (n) => {
      if (n % 50 === 0) checkpoints.push(`${n}: ${memory(sample())}`);
    });
    clearInterval(sampler);
    console.log(`\nworker + its Chromium processes over ${MEMORY_CAPTURES} captures at concurrency 4 (${((performance.now() - started) / 1000).toFixed(1)} s): peak ${memory(peak)}`);
    console.log(`after n captures: ${checkpoints.join('; ')}`);
  } finally {
    await pool.close();
    await defaultProxy.close();
    await peer.close();
    await env.stop();
    await fixtures.close();
  }
}
