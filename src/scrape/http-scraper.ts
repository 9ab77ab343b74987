import type { GuardedFetcher } from '../net/guarded-fetcher';
import type { ProcessContent } from './process/processing-pool';
import type { ProcessingTurn } from './process/thread-slots';
import { requestHeaders } from './request-headers';
import type { ScrapeOptions } from './scrape-options';
import type { ScrapedPage } from './scraped-page';

export type HttpScrapeResult = { kind: 'page'; page: ScrapedPage } | { kind: 'needs-browser'; reason: string };

/** Plain-HTTP scraping: fetch through the gate, process, and notice pages only a browser can fill. */
export class HttpScraper {
  constructor(
    private readonly fetcher: GuardedFetcher,
    private readonly userAgent: string,
    /** processBody, in processing threads (ProcessingPool) or inline. */
    private readonly process: ProcessContent,
  ) {}

  /** `turn`: whose turn its processing waits for (a crawl's page yields to pages a client waits on; teams take turns). */
  async scrape(url: string, options: ScrapeOptions, deadline: number, cancel?: AbortSignal, turn: ProcessingTurn = {}): Promise<HttpScrapeResult> {
    const started = performance.now();
    const response = await this.fetcher.get(url, {
      headers: requestHeaders(this.userAgent, options),
      deadline,
      ...(cancel && { cancel }),
      skipTlsVerification: options.skipTlsVerification,
    });
    const fetchMs = Math.round(performance.now() - started);
    const content = await this.process(response.body, response.contentType, response.url, options, { deadline, ...(cancel && { cancel }), fetchMs, turn });
    if (options.engine === 'auto' && content.appShell) return { kind: 'needs-browser', reason: 'app shell' };
    return {
      kind: 'page',
      page: {
        finalUrl: response.url,
        statusCode: response.status,
        contentType: response.contentType,
        ...(response.headers['retry-after'] && { retryAfter: response.headers['retry-after'] }),
        renderer: 'http',
        content,
        timing: { fetchMs, ...content.timing },
      },
    };
  }
}
