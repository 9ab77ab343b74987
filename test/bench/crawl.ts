import { startEnvironment } from '../helpers/environment';
import { benchShape } from './bench-shape';
import { apiCrawl, crawlBenchEnv, type ApiCrawlResult } from './crawl-run';
import { machine, table } from './measure';
import { crawleeCrawl } from './peers/crawlee-crawler';
import { inProcessCrawl } from './peers/in-process-crawler';
import { startGeneratedSite } from './sites/generated-site';

export const description =
  'a generated 2,000-page site crawled through the API (durable, persisted) at maxConcurrency 10 and 50 vs the in-process limit at the same concurrency and Crawlee CheerioCrawler at 50; BENCH_CRAWL_SINGLE=1 adds one page per activity (CRAWL_BATCH_SIZE=1)';

const PAGES = Number(process.env.BENCH_CRAWL_PAGES ?? 2_000);
const CONCURRENCIES = [10, 50];
/** Issue 18 runs every peer at 50. */
const CRAWLEE_CONCURRENCY = 50;
const WITH_SINGLE = process.env.BENCH_CRAWL_SINGLE === '1';
/** Pages of the warm-up site each crawler crawls first, so none is measured with a cold JIT. */
const WARM_UP_PAGES = 200;
/** Issue 18's goal for our pages/s over the in-process limit's, at each concurrency; issue 37's is 0.5x. */
const GOAL_RATIO = 0.8;
const COST_GOAL_RATIO = 0.5;

const rate = (r: { pages: number; ms: number }) => r.pages / (r.ms / 1000);

/**
 * The in-process limit's crawl with the CPU it took a page: it runs in this process (as does the
 * site server, whose share the stack's rows count under the bench process too), with the stack idle.
 */
async function measuredLimit(url: string, concurrency: number, pages: number): Promise<{ pages: number; ms: number; cpuMsPerPage: number }> {
  const before = process.cpuUsage();
  const result = await inProcessCrawl(url, concurrency, pages);
  const { user, system } = process.cpuUsage(before);
  return { ...result, cpuMsPerPage: (user + system) / 1000 / Math.max(1, result.pages) };
}

export async function run(): Promise<void> {
  const site = await startGeneratedSite('127.0.0.2', PAGES);
  const warmUpSite = await startGeneratedSite('127.0.0.3', WARM_UP_PAGES);
  const top = Math.max(...CONCURRENCIES);
  const stackEnv = crawlBenchEnv(top);
  console.log(
    `site: ${PAGES} pages, mean ${(site.meanBytes / 1024).toFixed(1)} KB; maxConcurrency ${CONCURRENCIES.join(' and ')}; API and worker with ${Object.entries(stackEnv).map(([k, v]) => `${k}=${v}`).join(', ')}; on the ${benchShape()}; ${machine()}`,
  );
  const allowPrivateHosts = ['127.0.0.2', '127.0.0.3'];
  const shape = benchShape();
  let env = await startEnvironment({ kind: 'bench', allowPrivateHosts, stackEnv, shape, log: () => {} });
  const common = { limit: PAGES, maxDepth: 100, ignoreSitemap: true };
  const wholePage = { ...common, scrapeOptions: { formats: ['markdown'], onlyMainContent: false } };
  const mainContent = { ...common, scrapeOptions: { formats: ['markdown'] } };
  const warmUp = () => apiCrawl(env, { ...wholePage, url: warmUpSite.url, maxConcurrency: 10 });
  try {
    console.log(`crawling with the in-process limit, Crawlee, then through the API, each after a ${WARM_UP_PAGES}-page warm-up crawl...`);
    await inProcessCrawl(warmUpSite.url, top, WARM_UP_PAGES);
    const limits = new Map<number, { pages: number; ms: number; cpuMsPerPage: number }>();
    for (const c of CONCURRENCIES) limits.set(c, await measuredLimit(site.url, c, PAGES));
    await crawleeCrawl(warmUpSite.url, CRAWLEE_CONCURRENCY);
    const crawlee = await crawleeCrawl(site.url, CRAWLEE_CONCURRENCY);
    await warmUp();
    const ours: { name: string; concurrency: number; result: ApiCrawlResult }[] = [];
    for (const c of CONCURRENCIES) {
      ours.push({ name: 'whole page', concurrency: c, result: await apiCrawl(env, { ...wholePage, url: site.url, maxConcurrency: c }) });
      ours.push({ name: 'onlyMainContent (default)', concurrency: c, result: await apiCrawl(env, { ...mainContent, url: site.url, maxConcurrency: c }) });
    }
    if (WITH_SINGLE) {
      // Before batching: a fresh stack whose crawl activities take one page each.
      await env.stop();
      env = await startEnvironment({ kind: 'bench', allowPrivateHosts, stackEnv: { ...stackEnv, CRAWL_BATCH_SIZE: '1' }, shape, log: () => {} });
      await warmUp();
      ours.push({ name: 'whole page, one page per activity', concurrency: 10, result: await apiCrawl(env, { ...wholePage, url: site.url, maxConcurrency: 10 }) });
    }

    const row = (name: string, concurrency: number, r: { pages: number; ms: number }) => [
      name,
      concurrency,
      r.pages,
      (r.ms / 1000).toFixed(1),
      rate(r).toFixed(1),
      limits.has(concurrency) ? (rate(r) / rate(limits.get(concurrency)!)).toFixed(2) : '',
    ];
    table(
      ['crawler', 'concurrency', 'pages', 'seconds', 'pages/s', 'over the in-process limit at that concurrency'],
      [
        ...CONCURRENCIES.map((c) => row('in-process limit (undici + cheerio + turndown, nothing durable)', c, limits.get(c)!)),
        row('Crawlee CheerioCrawler (in-memory storage)', CRAWLEE_CONCURRENCY, crawlee),
        ...ours.map((o) => row(`web-context-service, ${o.name}`, o.concurrency, o.result)),
      ],
    );
    for (const c of CONCURRENCIES) {
      const whole = ours.find((o) => o.concurrency === c && o.name === 'whole page')!.result;
      const limit = limits.get(c)!;
      const cpu = Object.values(whole.cpuMsPerPage).reduce((a, b) => a + b, 0);
      console.log(
        `maxConcurrency ${c}: ours (whole page) / in-process limit = ${(rate(whole) / rate(limit)).toFixed(2)}x (goals >= ${COST_GOAL_RATIO}x, >= ${GOAL_RATIO}x); ours / Crawlee at ${CRAWLEE_CONCURRENCY} = ${(rate(whole) / rate(crawlee)).toFixed(2)}x; CPU a page: ours ${cpu.toFixed(1)} ms in all, the limit ${limit.cpuMsPerPage.toFixed(1)} ms (${(cpu / limit.cpuMsPerPage).toFixed(2)}x)`,
      );
    }
    console.log('');
    const label = (o: (typeof ours)[number]) => `${o.name}, ${o.concurrency}`;
    table(
      ['run', 'worker peak RSS (MB)', 'Temporal runs', 'history events', 'events per 1,000 pages', 'largest run (events)'],
      ours.map((o) => [label(o), o.result.peakRssMb.toFixed(0), o.result.runs, o.result.historyEvents, Math.round((o.result.historyEvents / Math.max(1, o.result.pages)) * 1000), o.result.maxRunEvents]),
    );
    const groups = Object.keys(ours[0]!.result.cpuMsPerPage);
    table(
      ['run', ...groups.map((g) => `${g} CPU ms/page`), 'total'],
      ours.map((o) => [label(o), ...groups.map((g) => o.result.cpuMsPerPage[g]!.toFixed(1)), Object.values(o.result.cpuMsPerPage).reduce((a, b) => a + b, 0).toFixed(1)]),
    );
  } finally {
    await env.stop();
    await Promise.all([site.close(), warmUpSite.close()]);
  }
}
