import type { Logger } from 'pino';
import type { Config } from '../config/env';
import { GuardedFetcher } from '../net/guarded-fetcher';
import { PublicUrlGate } from '../net/public-url-gate';
import { HttpScraper } from './http-scraper';
import { ProcessingPool } from './process/processing-pool';

/** A process's plain-HTTP scraping: the gate, the fetcher, the processing threads and the scraper over them. */
export interface HttpScraping {
  gate: PublicUrlGate;
  fetcher: GuardedFetcher;
  processing: ProcessingPool;
  http: HttpScraper;
  /** Closes the fetcher's sockets and stops the processing threads. */
  close(): Promise<void>;
}

/** Builds plain-HTTP scraping from the configuration, as the worker and the API's own scrape worker use it. */
export function openHttpScraping(config: Config, logger: Logger): HttpScraping {
  const gate = new PublicUrlGate(config.ALLOW_PRIVATE_HOSTS);
  const fetcher = new GuardedFetcher(gate, config.MAX_PAGE_BYTES);
  const processing = new ProcessingPool({
    threads: config.PROCESSING_THREADS,
    budgetMs: config.PROCESSING_TIMEOUT_MS,
    heapMb: config.PROCESSING_THREAD_HEAP_MB,
    maxLinks: config.MAX_LINKS_PER_PAGE,
    onThreadError: (err) => logger.warn({ err }, 'a processing thread failed outside a page and was replaced'),
  });
  return {
    gate,
    fetcher,
    processing,
    http: new HttpScraper(fetcher, config.USER_AGENT, processing.process),
    close: async () => {
      await Promise.all([fetcher.close(), processing.close()]);
    },
  };
}
