import { startEnvironment } from '../helpers/environment';
import { apiCrawl } from './crawl-run';
import { machine, table } from './measure';
import { startGeneratedSite } from './sites/generated-site';

export const description = 'a 20,000-page crawl through the API: worker RSS over the crawl and the largest Temporal run in history events';

const PAGES = Number(process.env.BENCH_SCALE_PAGES ?? 20_000);

export async function run(): Promise<void> {
  const site = await startGeneratedSite('127.0.0.2', PAGES);
  console.log(`site: ${PAGES} pages, mean ${(site.meanBytes / 1024).toFixed(1)} KB; ${machine()}`);
  const env = await startEnvironment({ kind: 'bench', allowPrivateHosts: ['127.0.0.2'], log: () => {} });
  try {
    const result = await apiCrawl(env, { url: site.url, limit: PAGES, maxDepth: 100, ignoreSitemap: true, maxConcurrency: 10, scrapeOptions: { formats: ['markdown'] } });
    const at = (share: number) => result.rssSamples[Math.min(result.rssSamples.length - 1, Math.floor(share * result.rssSamples.length))] ?? 0;
    table(
      ['pages', 'failed', 'minutes', 'pages/s', 'Temporal runs', 'largest run (events)', 'events per 1,000 pages'],
      [[result.pages, result.failed, (result.ms / 60_000).toFixed(1), (result.pages / (result.ms / 1000)).toFixed(1), result.runs, result.maxRunEvents, Math.round((result.historyEvents / Math.max(1, result.pages)) * 1000)]],
    );
    table(
      ['worker RSS (MB) at', '10%', '25%', '50%', '75%', '100%', 'peak'],
      [['of the crawl', ...[0.1, 0.25, 0.5, 0.75, 0.999].map((s) => at(s).toFixed(0)), result.peakRssMb.toFixed(0)]],
    );
  } finally {
    await env.stop();
    await site.close();
  }
}
