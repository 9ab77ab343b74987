/**
 * `npm run bench overload`: load as users make it, through the API as `npm start` runs it, with
 * the default settings.
 *
 * 1. Real pages: 1, 8 and 32 closed-loop clients scrape the 280 WCXB pages (served from
 *    127.0.0.2) for BENCH_OVERLOAD_SECONDS each; the target is no refusal and no failure.
 * 2. A flood: 1, 8, 32 and 128 closed-loop clients scrape one small page, calling again at once
 *    when refused (they ignore `Retry-After`); served/s, refusals and accepted p50/p99. Targets:
 *    at 128, at least 1.5x the one-client rate and 0.9x the best lower row; accepted p99 within
 *    the requests' timeout.
 * 3. Fairness: team B's scrape p50 idle, during team A's burst of 64 real pages at once, and
 *    while team A crawls a generated site (BENCH_OVERLOAD_PAGES, default 2,000) at
 *    `maxConcurrency: 50`; the target is at most 2x idle.
 *
 * Clients run in BENCH_OVERLOAD_CLIENT_THREADS (default 4) threads: a user's clients are other
 * programs, and one event loop for all of them would add its own queue to every answer.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { connectDatabase } from '../../src/db/client';
import { setTeamLimits } from '../../src/limits/team-limits';
import { html, startFixtureServer } from '../fixtures/fixture-server';
import { createTeamWithKey } from '../helpers/accounts';
import { startEnvironment, type Environment } from '../helpers/environment';
import { startWcxbSite, type WcxbSite } from '../helpers/wcxb-site';
import { clientsInThreads } from './client-threads';
import { apiScrape, countAnswers, type Answer } from './closed-loop';
import { machine, percentile, table } from './measure';
import { startGeneratedSite } from './sites/generated-site';

export const description =
  'overload: served/s, refusals and accepted p50/p99 at 1-128 closed-loop clients (real pages, and a small page flooded ignoring Retry-After); team B p50 idle vs during team A burst and crawl';

const PAGES = Number(process.env.BENCH_OVERLOAD_PAGES ?? 2_000);
const SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 20);
const CLIENT_THREADS = Number(process.env.BENCH_OVERLOAD_CLIENT_THREADS ?? 4);
/** Team B's scrapes per fairness sample. */
const SAMPLES = 15;
/** Team A's burst. */
const BURST = 64;
/** The requests' timeout (the default); accepted p99 must stay within it. */
const TIMEOUT_MS = 30_000;
const SCRAPE_OPTIONS = { formats: ['markdown'], timeout: TIMEOUT_MS };

interface Row {
  clients: number;
  perSecond: number;
  accepted: number[];
  refused: number;
  failed: number;
}

async function loadRow(env: Environment, key: string, urls: string[], clients: number, ignoreRetryAfter: boolean): Promise<Row> {
  const threads = Math.min(CLIENT_THREADS, clients);
  const { answers, seconds } = await clientsInThreads(threads, { apiUrl: env.stack.apiUrl, key, urls, options: SCRAPE_OPTIONS, clients, seconds: SECONDS, ignoreRetryAfter });
  const { ok, refused } = countAnswers(answers);
  return { clients, perSecond: ok.length / seconds, accepted: ok, refused: refused.length, failed: answers.length - ok.length - refused.length };
}

function loadTable(rows: Row[]): void {
  table(
    ['clients', 'served/s', 'refused', 'failed', 'accepted p50 ms', 'accepted p99 ms'],
    rows.map((r) => [r.clients, r.perSecond.toFixed(1), r.refused, r.failed, percentile(r.accepted, 50).toFixed(0), percentile(r.accepted, 99).toFixed(0)]),
  );
}

async function realPages(env: Environment, key: string, site: WcxbSite): Promise<void> {
  const urls = site.pages.map((p) => site.urlOf(p));
  const rows: Row[] = [];
  for (const clients of [1, 8, 32]) rows.push(await loadRow(env, key, urls, clients, false));
  loadTable(rows);
  console.log(`refused ${rows.reduce((n, r) => n + r.refused, 0)}, failed ${rows.reduce((n, r) => n + r.failed, 0)} (target: 0 and 0)`);
}

async function flood(env: Environment, key: string, small: string): Promise<void> {
  const rows: Row[] = [];
  for (const clients of [1, 8, 32, 128]) rows.push(await loadRow(env, key, [small], clients, true));
  loadTable(rows);
  const last = rows.at(-1)!;
  const best = Math.max(...rows.slice(0, -1).map((r) => r.perSecond));
  console.log(
    `at 128 clients: ${(last.perSecond / rows[0]!.perSecond).toFixed(2)}x the one-client rate (target >= 1.5), ${(last.perSecond / best).toFixed(2)}x the best lower row (target >= 0.9); accepted p99 ${percentile(last.accepted, 99).toFixed(0)} ms (target <= ${TIMEOUT_MS})`,
  );
}

async function sampleB(env: Environment, key: string, url: string, stop: () => boolean = () => false): Promise<number[]> {
  const ms: number[] = [];
  while (ms.length < SAMPLES && !stop()) {
    const a: Answer = await apiScrape(env.stack.apiUrl, key, url, SCRAPE_OPTIONS);
    if (a.status === 200) ms.push(a.ms);
    else throw new Error(`team B's scrape was answered ${a.status}`);
  }
  return ms;
}

async function fairness(env: Environment, keys: { a: string; b: string }, site: WcxbSite): Promise<void> {
  const bUrl = site.urlOf(site.pages.find((p) => p.pageType === 'article')!);
  const p50 = (v: number[]) => percentile(v, 50);
  await sampleB(env, keys.b, bUrl); // warm-up
  const idle = await sampleB(env, keys.b, bUrl);

  const burstUrls = site.pages.filter((p) => site.urlOf(p) !== bUrl).slice(0, BURST).map((p) => site.urlOf(p));
  let bursting = true;
  const burst = Promise.all(burstUrls.map((url) => apiScrape(env.stack.apiUrl, keys.a, url, SCRAPE_OPTIONS))).finally(() => (bursting = false));
  const duringBurst = await sampleB(env, keys.b, bUrl, () => !bursting);
  const burstAnswers = await burst;

  const generated = await startGeneratedSite('127.0.0.2', PAGES);
  let duringCrawl: number[];
  let crawled: { status: string; completed: number };
  try {
    const started = await fetch(`${env.stack.apiUrl}/v1/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.a}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: generated.url, limit: PAGES, maxDepth: 100, ignoreSitemap: true, maxConcurrency: 50, scrapeOptions: { formats: ['markdown'] } }),
    });
    const { id } = (await started.json()) as { id: string };
    const status = async () => (await (await fetch(`${env.stack.apiUrl}/v1/crawl/${id}`, { headers: { authorization: `Bearer ${keys.a}` } })).json()) as { status: string; completed: number };
    let crawling = true;
    const watcher = (async () => {
      while ((await status()).status === 'scraping') await sleep(500);
      crawling = false;
    })();
    await sleep(2_000); // the crawl's fan-out under way
    duringCrawl = await sampleB(env, keys.b, bUrl, () => !crawling);
    await watcher;
    crawled = await status();
  } finally {
    await generated.close();
  }
  table(
    ['team B scrapes (a real article)', 'samples', 'p50 ms', 'p95 ms', 'p50 / idle'],
    [
      ['idle', idle.length, p50(idle).toFixed(0), percentile(idle, 95).toFixed(0), '1.00'],
      [`during team A's burst of ${BURST} real pages`, duringBurst.length, p50(duringBurst).toFixed(0), percentile(duringBurst, 95).toFixed(0), (p50(duringBurst) / p50(idle)).toFixed(2)],
      [`while team A crawls ${PAGES} pages at maxConcurrency 50`, duringCrawl.length, p50(duringCrawl).toFixed(0), percentile(duringCrawl, 95).toFixed(0), (p50(duringCrawl) / p50(idle)).toFixed(2)],
    ],
  );
  const burstRefused = burstAnswers.filter((a) => a.status !== 200).length;
  console.log(`target: p50 / idle <= 2; team A's burst: ${BURST - burstRefused} served, ${burstRefused} not; its crawl: ${crawled.status}, ${crawled.completed} pages`);
}

export async function run(): Promise<void> {
  console.log(machine());
  const small = await startFixtureServer(
    { '/small': (_req, res) => html(res, '<html><head><title>Small</title></head><body><main><h1>Small page</h1><p>A few words to scrape.</p></main></body></html>') },
    '127.0.0.3',
  );
  const site = await startWcxbSite('127.0.0.2');
  const env = await startEnvironment({ kind: 'bench', allowPrivateHosts: ['127.0.0.2', '127.0.0.3'], log: () => {} });
  try {
    const db = connectDatabase(env.databaseUrl, 1);
    const [a, b] = await Promise.all([createTeamWithKey(db.db, 'bench-a', 10_000_000), createTeamWithKey(db.db, 'bench-b', 10_000_000)]);
    // Team A's operator limit fits its burst; it is also its fairness weight (64 / TEAM_PAGES_IN_FLIGHT).
    await setTeamLimits(db.db, a.teamId, { pagesInFlight: BURST });
    await db.close();
    console.log(`\nreal pages (280 WCXB pages), ${SECONDS} s per row, clients honour Retry-After:`);
    await realPages(env, b.key, site);
    console.log(`\na flood: one small page, ${SECONDS} s per row, clients ignore Retry-After:`);
    await flood(env, b.key, `${small.url}/small`);
    console.log('\nfairness between teams:');
    await fairness(env, { a: a.key, b: b.key }, site);
  } finally {
    await env.stop();
    await small.close();
    await site.close();
  }
}
