import { startEnvironment } from '../helpers/environment';
import { apiCrawl } from './crawl-run';
import { machine, table } from './measure';
import { crawleeCrawl } from './peers/crawlee-crawler';
import { inProcessCrawl } from './peers/in-process-crawler';
import { startGeneratedSite } from './sites/generated-site';

export const description =
  'a generated 2,000-page site crawled through the API (durable, persisted) vs Crawlee CheerioCrawler vs the in-process limit, and with one page per activity (CRAWL_BATCH_SIZE=1) vs batches';

const PAGES = Number(process.env.BENCH_CRAWL_PAGES ?? 2_000);
const CONCURRENCY = 10;
/** Pages of the warm-up site each crawler crawls first, so none is measured with a cold JIT. */
const WARM_UP_PAGES = 200;

export async function run(): Promise<void> {
  const site = await startGeneratedSite('127.0.0.2', PAGES);
  const warmUpSite = await startGeneratedSite('127.0.0.3', WARM_UP_PAGES);
  console.log(`site: ${PAGES} pages, mean ${(site.meanBytes / 1024).toFixed(1)} KB; concurrency ${CONCURRENCY}; ${machine()}`);
  const allowPrivateHosts = ['127.0.0.2', '127.0.0.3'];
  let env = await startEnvironment({ kind: 'bench', allowPrivateHosts, log: () => {} });
  const common = { limit: PAGES, maxDepth: 100, ignoreSitemap: true, maxConcurrency: CONCURRENCY };
  const wholePage = { ...common, scrapeOptions: { formats: ['markdown'], onlyMainContent: false } };
  const warmUp = () => apiCrawl(env, { ...wholePage, url: warmUpSite.url });
  try {
    console.log(`crawling with the in-process limit, Crawlee, then through the API, each after a ${WARM_UP_PAGES}-page warm-up crawl...`);
    await inProcessCrawl(warmUpSite.url, CONCURRENCY, WARM_UP_PAGES);
    const limit = await inProcessCrawl(site.url, CONCURRENCY, PAGES);
    await crawleeCrawl(warmUpSite.url, CONCURRENCY);
    const crawlee = await crawleeCrawl(site.url, CONCURRENCY);
    await warmUp();
    const full = await apiCrawl(env, { ...wholePage, url: site.url });
    const main = await apiCrawl(env, { ...common, url: site.url, scrapeOptions: { formats: ['markdown'] } });
    // Before batching: a fresh stack whose crawl activities take one page each.
    await env.stop();
    env = await startEnvironment({ kind: 'bench', allowPrivateHosts, stackEnv: { CRAWL_BATCH_SIZE: '1' }, log: () => {} });
    await warmUp();
    const single = await apiCrawl(env, { ...wholePage, url: site.url });

    const rate = (r: { pages: number; ms: number }) => r.pages / (r.ms / 1000);
    const ours = rate(full);
    table(
      ['crawler', 'pages', 'seconds', 'pages/s', 'ratio (see below)'],
      [
        ['in-process limit (undici + cheerio + turndown, nothing durable)', limit.pages, (limit.ms / 1000).toFixed(1), rate(limit).toFixed(1), (ours / rate(limit)).toFixed(2)],
        ['Crawlee CheerioCrawler (in-memory storage)', crawlee.pages, (crawlee.ms / 1000).toFixed(1), rate(crawlee).toFixed(1), (ours / rate(crawlee)).toFixed(2)],
        ['web-context-service, markdown of the whole page', full.pages, (full.ms / 1000).toFixed(1), ours.toFixed(1), '1.00'],
        ['web-context-service, onlyMainContent (default)', main.pages, (main.ms / 1000).toFixed(1), rate(main).toFixed(1), (rate(main) / ours).toFixed(2)],
        ['web-context-service, whole page, one page per activity', single.pages, (single.ms / 1000).toFixed(1), rate(single).toFixed(1), (rate(single) / ours).toFixed(2)],
      ],
    );
    console.log('ratio: for a peer, our whole-page pages/s over its pages/s; for our other runs, their pages/s over our whole-page run\'s.\n');
    table(
      ['run', 'worker peak RSS (MB)', 'Temporal runs', 'history events', 'events per 1,000 pages', 'largest run (events)'],
      [full, main, single].map((r, i) => [
        ['whole page', 'onlyMainContent', 'whole page, one page per activity'][i]!,
        r.peakRssMb.toFixed(0),
        r.runs,
        r.historyEvents,
        Math.round((r.historyEvents / Math.max(1, r.pages)) * 1000),
        r.maxRunEvents,
      ]),
    );
    const groups = Object.keys(full.cpuMsPerPage);
    table(
      ['run', ...groups.map((g) => `${g} CPU ms/page`), 'total'],
      [full, main, single].map((r, i) => [
        ['whole page', 'onlyMainContent', 'whole page, one page per activity'][i]!,
        ...groups.map((g) => r.cpuMsPerPage[g]!.toFixed(1)),
        Object.values(r.cpuMsPerPage).reduce((a, b) => a + b, 0).toFixed(1),
      ]),
    );
  } finally {
    await env.stop();
    await Promise.all([site.close(), warmUpSite.close()]);
  }
}
