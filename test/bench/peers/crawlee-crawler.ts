import { CheerioCrawler, Configuration } from '@crawlee/cheerio';
import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';

/** Crawlee's CheerioCrawler with in-memory storage and a fixed concurrency, doing the same work. */
export async function crawleeCrawl(start: string, concurrency: number, limit: number): Promise<{ pages: number; ms: number }> {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  turndown.use(gfm);
  const config = new Configuration({ persistStorage: false, purgeOnStart: true, logLevel: 1 });
  let pages = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestsPerCrawl: limit,
      maxRequestRetries: 0,
      async requestHandler({ $, enqueueLinks }) {
        await enqueueLinks({ strategy: 'same-hostname' });
        $('script, style').remove();
        turndown.turndown($('body').html() ?? '');
        pages++;
      },
    },
    config,
  );
  const started = performance.now();
  await crawler.run([start]);
  return { pages, ms: performance.now() - started };
}
