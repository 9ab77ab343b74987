import type { Config } from '../config/env';
import type { ScrapeOptions } from '../scrape/scrape-options';
import type { CrawlCounts } from './crawl-counts';
import type { CrawlOptions } from './crawl-options';

/** What a crawl run needs and carries across continue-as-new: ids, counters and cursors only. */
export interface CrawlWorkflowInput {
  jobId: string;
  teamId: string;
  /** host of the start URL, for the Temporal UI. */
  host: string;
  maxConcurrency: number;
  /** Only the parts of the scrape options that choose the engine. */
  engine: Pick<ScrapeOptions, 'engine' | 'waitFor' | 'mobile' | 'formats'>;
  hasWebhook: boolean;
  browserQueue: string;
  state?: CrawlState;
}

export interface CrawlState {
  seeded: boolean;
  /** Next claim id's sequence number; claim ids are `<first run id>:<seq>`, unique across retries. */
  batchSeq: number;
  counts: Pick<CrawlCounts, 'completed' | 'failed'>;
  /** The webhook deliverer was started by this chain of runs. */
  delivering?: boolean;
}

/** The first input of a `crawl-<jobId>` run, from the job's stored options. */
export function crawlRunInput(jobId: string, teamId: string, options: CrawlOptions, config: Config): CrawlWorkflowInput {
  const { engine, waitFor, mobile, formats } = options.scrapeOptions;
  return {
    jobId,
    teamId,
    host: new URL(options.url).host,
    maxConcurrency: options.maxConcurrency,
    engine: { engine, waitFor, mobile, formats },
    hasWebhook: options.webhook !== undefined,
    browserQueue: config.taskQueues.browser,
  };
}
