import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Logger } from 'pino';
import { createScrapeActivities } from '../../activities/scrape-page';
import type { Config } from '../config/env';
import { connectDatabase, type Database } from '../db/client';
import { openHttpScraping, type HttpScraping } from '../scrape/open-http-scraper';
import type { ScreenshotStore } from '../screenshots/screenshot-store';
import { clientTracingInterceptors } from '../telemetry/client-tracing';
import type { WorkerTracing } from '../telemetry/worker-tracing';
import { bundleWorkflowsInChild } from '../worker/workflow-bundle';

/** Wait before running again after the worker stopped on its own; doubles up to the cap. */
const RESTART_DELAY_MS = { initial: 1_000, max: 30_000 };

export interface ApiScrapeWorkerDeps {
  config: Config;
  screenshots: ScreenshotStore;
  logger: Logger;
  tracing?: WorkerTracing | undefined;
}

/**
 * The API's own Temporal worker for the scrape queue, so that the scrapes it starts can start
 * eagerly (EAGER_SCRAPES): the start call comes back with the scrape's first workflow task, and
 * this worker runs it at once, its plain-HTTP fetch and processing as a local activity. That
 * spares each scrape the trip through the task queue to a polling worker (Temporal's matching
 * service) and the server work that goes with it. The queue's workers in worker processes take
 * whatever this one cannot: a start made while it has no free slot, a workflow task it dropped,
 * and the regular activities of a scrape (a failure record, a json extraction, a browser render
 * on the browser queue), which it does not poll.
 *
 * It runs in the background: the API serves before it is up (scrapes then go through the queue),
 * and when it cannot connect or stops on its own (Temporal went away) it is built again with
 * backoff.
 */
export class ApiScrapeWorker {
  /** A client on the worker's connection, set while the worker runs. */
  private client: Client | undefined;
  private readonly stopping = new AbortController();
  private readonly scraping: HttpScraping;
  /**
   * Postgres connections of its own: the pages it stores would otherwise queue the API's
   * request queries (key lookups, balances, job rows) behind them under load.
   */
  private readonly database: Database;
  private readonly done: Promise<void>;

  constructor(private readonly deps: ApiScrapeWorkerDeps) {
    this.scraping = openHttpScraping(deps.config);
    this.database = connectDatabase(deps.config.DATABASE_URL, deps.config.DATABASE_POOL_SIZE);
    this.done = this.keepRunning();
  }

  /** A client whose starts on the scrape queue may run here eagerly; undefined while the worker is not running. */
  get eagerClient(): Client | undefined {
    return this.client;
  }

  /** Stops the worker (a scrape it was running goes on in a worker process) and releases the threads. */
  async close(): Promise<void> {
    this.stopping.abort();
    await this.done;
    await Promise.all([this.scraping.close(), this.database.close()]);
  }

  private async keepRunning(): Promise<void> {
    const { config, logger } = this.deps;
    const stopped = this.stopping.signal;
    const stopRequested = new Promise<void>((resolve) => stopped.addEventListener('abort', () => resolve(), { once: true }));
    let bundle: { code: string } | undefined;
    let delay = RESTART_DELAY_MS.initial;
    while (!stopped.aborted) {
      try {
        bundle ??= await bundleWorkflowsInChild(this.deps.tracing?.workflowInterceptorModules);
        const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
        try {
          const worker = await this.createWorker(connection, bundle);
          const interceptors = clientTracingInterceptors(!!this.deps.tracing);
          this.client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, ...(interceptors && { interceptors }) });
          logger.info({ taskQueue: config.taskQueues.scrape }, 'api scrape worker running: scrapes start eagerly here');
          delay = RESTART_DELAY_MS.initial;
          // Until close(); a worker that fails on its own (Temporal gone for good) rejects here.
          await worker.runUntil(stopRequested);
        } finally {
          this.client = undefined;
          await connection.close();
        }
      } catch (err) {
        logger.warn({ err, retryInMs: delay }, 'api scrape worker not running; scrapes go through the task queue to the workers until it is');
      }
      await sleep(delay, undefined, { signal: stopped }).catch(() => undefined);
      delay = Math.min(RESTART_DELAY_MS.max, delay * 2);
    }
  }

  private createWorker(connection: NativeConnection, workflowBundle: { code: string }): Promise<Worker> {
    const { config, screenshots, tracing } = this.deps;
    const scrape = createScrapeActivities({
      db: this.database.db,
      http: this.scraping.http,
      browser: () => {
        throw new Error('the API scrape worker renders nothing: browser work goes to the browser queue');
      },
      screenshots,
    });
    return Worker.create({
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: config.taskQueues.scrape,
      workflowBundle,
      // Only the plain-HTTP step, which the scrape workflow runs as a local activity; its
      // regular activities stay with the worker processes.
      activities: { scrapePageHttp: scrape.scrapePageHttp },
      enableNonLocalActivities: false,
      ...(tracing && { interceptors: { activity: tracing.interceptors.activity ?? [] }, sinks: tracing.sinks }),
    });
  }
}
