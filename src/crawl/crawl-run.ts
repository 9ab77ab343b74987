import type { Config } from '../config/env';
import type { CrawlWorkflowInput } from '../../workflows/crawl';
import type { CrawlOptions } from './crawl-options';

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
