import { startEnvironment } from '../helpers/environment';
import { apiCrawl, crawlBenchEnv } from './crawl-run';
import { machine, table } from './measure';
import { startGeneratedSite } from './sites/generated-site';

export const description =
  'a 20,000-page crawl through the API at maxConcurrency 50: worker RSS at every tenth of the crawl, its peak and growth, and the largest Temporal run in history events';

const PAGES = Number(process.env.BENCH_SCALE_PAGES ?? 20_000);
/** Issue 18 names no concurrency for its RSS figure; 50 is the one its crawl figure uses. */
const CONCURRENCY = Number(process.env.BENCH_SCALE_CONCURRENCY ?? 50);

export async function run(): Promise<void> {
  const site = await startGeneratedSite('127.0.0.2', PAGES);
  console.log(`site: ${PAGES} pages, mean ${(site.meanBytes / 1024).toFixed(1)} KB; maxConcurrency ${CONCURRENCY}, onlyMainContent markdown; ${machine()}`);
  const env = await startEnvironment({ kind: 'bench', allowPrivateHosts: ['127.0.0.2'], stackEnv: crawlBenchEnv(CONCURRENCY), log: () => {} });
  try {
    const result = await apiCrawl(env, { url: site.url, limit: PAGES, maxDepth: 100, ignoreSitemap: true, maxConcurrency: CONCURRENCY, scrapeOptions: { formats: ['markdown'] } });
    table(
      ['pages', 'failed', 'minutes', 'pages/s', 'Temporal runs', 'largest run (events)', 'events per 1,000 pages'],
      [[result.pages, result.failed, (result.ms / 60_000).toFixed(1), (result.pages / (result.ms / 1000)).toFixed(1), result.runs, result.maxRunEvents, Math.round((result.historyEvents / Math.max(1, result.pages)) * 1000)]],
    );
    // The worker's RSS at the first status poll past each tenth of the pages.
    const tenths = Array.from({ length: 10 }, (_, i) => (i + 1) / 10);
    const at = (share: number) => result.progress.find((p) => p.pages >= share * result.pages) ?? result.progress[result.progress.length - 1];
    table(
      ['pages stored', ...tenths.map((s) => `${Math.round(s * 100)}%`), 'peak'],
      [
        ['pages', ...tenths.map((s) => at(s)?.pages ?? 0), ''],
        ['worker RSS (MB)', ...tenths.map((s) => (at(s)?.rssMb ?? 0).toFixed(0)), result.peakRssMb.toFixed(0)],
      ],
    );
    const growth = (at(1)?.rssMb ?? 0) - (at(0.2)?.rssMb ?? 0);
    console.log(`flatness: RSS from 20% to 100% of the crawl ${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB; peak ${result.peakRssMb.toFixed(0)} MB = ${(result.peakRssMb / 512).toFixed(2)}x issue 18's 512 MB (at most 1 meets it)`);
  } finally {
    await env.stop();
    await site.close();
  }
}
