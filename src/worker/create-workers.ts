import { Client } from '@temporalio/client';
import { NativeConnection, Worker, type WorkerInterceptors } from '@temporalio/worker';
import type { Logger } from 'pino';
import { createCrawlActivities } from '../../activities/crawl';
import { createMapActivities } from '../../activities/map';
import { createExtractActivities } from '../../activities/extract';
import { createMonitorActivities } from '../../activities/monitor';
import { createAgentActivities } from '../../activities/agent';
import { createScrapeActivities } from '../../activities/scrape-page';
import { createScreenshotActivities } from '../../activities/screenshot';
import { createSearchActivities } from '../../activities/search';
import { BrowserPool } from '../browser/browser-pool';
import { BrowserScraper } from '../browser/browser-scraper';
import { RobotsCache } from '../crawl/robots';
import { findChromium } from '../browser/chromium-path';
import { workflowBundle as loadWorkflowBundle } from './workflow-bundle';
import type { WorkerTracing } from '../telemetry/worker-tracing';
import type { Config } from '../config/env';
import type { Database } from '../db/client';
import { LlmClient } from '../extract/llm/llm-client';
import { FilteringProxy } from '../net/filtering-proxy';
import { openHttpScraping } from '../scrape/open-http-scraper';
import { configuredProviders } from '../search/providers/configured-providers';
import { ensureRetentionSchedule } from '../monitors/retention-schedule';
import { ensureCleanupSchedule } from '../screenshots/cleanup-schedule';
import { createImageStore } from '../screenshots/create-image-store';
import { ScreenshotStore } from '../screenshots/screenshot-store';

/** What an embedding process (a test, say) may add to every worker it builds. */
export interface WorkerExtensions {
  /** Temporal interceptors, e.g. an activity interceptor that injects a failure. */
  interceptors?: WorkerInterceptors;
  /** OpenTelemetry tracing of workflows and activities (OTEL_EXPORTER_OTLP_ENDPOINT set). */
  tracing?: WorkerTracing;
}

export interface WorkerSet {
  workers: Worker[];
  /** Releases what the workers used (browser, proxies, sockets) once they have stopped. */
  dispose(): Promise<void>;
}

/**
 * Builds the workers this process runs: the HTTP queue (workflows, plain-HTTP activities, the
 * screenshot cleanup, monitor checks) with the scrape queue beside it (single-page and
 * screenshot workflows), and the browser queue (Chromium activities only), each only if
 * WORKER_QUEUES names it. A worker on the HTTP queue also makes sure the screenshot cleanup and
 * monitor retention Schedules exist.
 */
export async function createWorkers(
  config: Config,
  database: Database,
  connection: NativeConnection,
  logger: Logger,
  extensions: WorkerExtensions = {},
): Promise<WorkerSet> {
  const scraping = openHttpScraping(config, logger);
  const { gate, fetcher, processing, http } = scraping;
  const images = createImageStore(config);
  const screenshots = new ScreenshotStore(database.db, images, { publicUrl: config.PUBLIC_URL, ttlSeconds: config.SCREENSHOT_TTL_SECONDS });
  const cleanups: (() => Promise<void>)[] = [() => scraping.close(), () => images.close()];

  let browser: BrowserScraper | undefined;
  if (config.WORKER_QUEUES.includes('browser')) {
    const executablePath = findChromium(config.CHROMIUM_PATH);
    if (!executablePath) throw new Error('No Chromium found: set CHROMIUM_PATH, install chromium, or run `npx playwright install chromium`');
    const defaultProxy = await FilteringProxy.start(gate);
    const pool = new BrowserPool({
      executablePath,
      maxPages: config.BROWSER_MAX_PAGES,
      restartAfterPages: config.BROWSER_RESTART_AFTER_PAGES,
      defaultProxy: defaultProxy.url,
      logger,
    });
    browser = new BrowserScraper(gate, pool, { userAgent: config.USER_AGENT, maxCaptureHeight: config.SCREENSHOT_MAX_HEIGHT, process: processing.process, maxBytes: config.MAX_PAGE_BYTES });
    cleanups.push(() => pool.close(), () => defaultProxy.close());
  }

  const browserScraper = () => {
    if (!browser) throw new Error('this worker does not poll the browser queue');
    return browser;
  };
  const scrape = createScrapeActivities({ db: database.db, http, browser: browserScraper, screenshots });
  const shots = createScreenshotActivities({ db: database.db, screenshots, browser: browserScraper });
  const llm = config.llm && new LlmClient(config.llm);
  const extract = createExtractActivities({ db: database.db, ...(llm && { llm }) });
  const providers = configuredProviders(config, database.db);
  const search = createSearchActivities({ db: database.db, providers, gate });
  const agent = createAgentActivities({ db: database.db, providers, gate, fetcher, ...(llm && { llm }) });
  const robots = new RobotsCache(fetcher, config.USER_AGENT);
  const map = createMapActivities({ db: database.db, fetcher, http, robots, userAgent: config.USER_AGENT });
  const crawl = createCrawlActivities({
    db: database.db,
    http,
    browser: browserScraper,
    fetcher,
    robots,
    screenshots,
    extractPageData: extract.extractPageData,
    ...(config.llm && { llm: config.llm }),
    userAgent: config.USER_AGENT,
    maxBatchSize: config.CRAWL_BATCH_SIZE,
    perHostBatches: config.CRAWL_HOST_CONCURRENCY,
    teamPagesInFlight: config.TEAM_PAGES_IN_FLIGHT,
  });
  const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const monitor = createMonitorActivities({ db: database.db, config, temporal, fetcher, ...(llm && { llm }), ...(config.smtp && { smtp: config.smtp }) });
  const { tracing } = extensions;
  const interceptors: WorkerInterceptors = {
    ...extensions.interceptors,
    activity: [...(extensions.interceptors?.activity ?? []), ...(tracing?.interceptors.activity ?? [])],
  };
  const common = {
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    // A heartbeat is sent at most this often (else every 0.8 x heartbeatTimeout, 8 s for a crawl
    // batch), and its answer is how a running activity learns it was cancelled: within 2 s, the
    // activity's abort signal stops its fetch, its render or its processing thread.
    maxHeartbeatThrottleInterval: '2s',
    interceptors,
    ...(tracing && { sinks: tracing.sinks }),
  };
  const workers: Worker[] = [];
  if (config.WORKER_QUEUES.includes('http')) {
    // Workflows run on the http and scrape queues only: a browser worker runs activities, and
    // so has no workflow thread (about 45 MB each). One bundle for both (see workflow-bundle.ts).
    const workflowBundle = await loadWorkflowBundle(tracing?.workflowInterceptorModules);
    workers.push(
      await Worker.create({
        ...common,
        workflowBundle,
        taskQueue: config.taskQueues.http,
        activities: {
          scrapePageHttp: scrape.scrapePageHttp,
          recordPageFailure: scrape.recordPageFailure,
          seedCrawl: crawl.seedCrawl,
          claimCrawlBatches: crawl.claimCrawlBatches,
          crawlBatch: crawl.crawlBatch,
          abandonBatch: crawl.abandonBatch,
          finishCrawl: crawl.finishCrawl,
          deliverWebhooks: crawl.deliverWebhooks,
          mapSite: map.mapSite,
          expandUrlPattern: map.expandUrlPattern,
          deleteExpiredScreenshots: shots.deleteExpiredScreenshots,
          ...extract,
          ...search,
          ...monitor,
          ...agent,
        },
        maxConcurrentActivityTaskExecutions: 64,
      }),
    );
    // Scrapes the API starts run here when the API's own scrape worker is busy, absent or gone
    // (see api-scrape-worker.ts), and their regular activities (a failure record, a json
    // extraction) always do; so do screenshot workflows, whose capture is on the browser queue.
    workers.push(
      await Worker.create({
        ...common,
        workflowBundle,
        taskQueue: config.taskQueues.scrape,
        activities: { scrapePageHttp: scrape.scrapePageHttp, recordPageFailure: scrape.recordPageFailure, recordScreenshotFailure: shots.recordScreenshotFailure, ...extract },
      }),
    );
    await ensureCleanupSchedule(temporal, config);
    await ensureRetentionSchedule(temporal, config);
  }
  if (browser) {
    workers.push(
      await Worker.create({
        ...common,
        taskQueue: config.taskQueues.browser,
        activities: {
          scrapePageBrowser: scrape.scrapePageBrowser,
          crawlBatchBrowser: crawl.crawlBatchBrowser,
          captureScreenshot: shots.captureScreenshot,
        },
        maxConcurrentActivityTaskExecutions: config.BROWSER_MAX_PAGES * 2,
      }),
    );
  }
  return {
    workers,
    dispose: async () => {
      for (const cleanup of cleanups) await cleanup().catch((err) => logger.warn({ err }, 'cleanup failed'));
    },
  };
}
