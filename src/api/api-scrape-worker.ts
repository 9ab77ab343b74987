import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Logger } from 'pino';
import { createHttpScrapeActivity } from '../../activities/scrape-page';
import type { Config } from '../config/env';
import { connectDatabase, type Database } from '../db/client';
import type { HttpScraper } from '../scrape/http-scraper';
import { openHttpScraping, type HttpScraping } from '../scrape/open-http-scraper';
import type { ScrapeOptions } from '../scrape/scrape-options';
import { clientTracingInterceptors } from '../telemetry/client-tracing';
import type { WorkerTracing } from '../telemetry/worker-tracing';
import { workflowBundle, type WorkflowBundle } from '../worker/workflow-bundle';
import { FinishedScrapes } from './finished-scrapes';
import { PrefetchedPages, type Prefetch } from './prefetched-pages';

/**
 * How long a stopping API lets the scrapes its worker runs finish. Past it they are cancelled,
 * and their workflow tasks run again in a worker process (after the 10 s workflow task timeout).
 */
const SHUTDOWN_GRACE = '10s';

/**
 * Scrapes the API's worker runs at once. Past the SDK's default of 40 workflow tasks: each of
 * them mostly waits (for the page, for a processing thread), and a scrape that finds no free
 * slot goes through Temporal's matching to a worker process, which costs more CPU than running
 * it here.
 */
const SCRAPE_SLOTS = 160;
/** Scrapes below which a new start is likely to run here eagerly, leaving room for those the worker took from the queue meanwhile. */
const EAGER_ROOM = SCRAPE_SLOTS - 16;

/** Wait before running again after the worker stopped on its own; doubles up to the cap. */
const RESTART_DELAY_MS = { initial: 1_000, max: 30_000 };

export interface ApiScrapeWorkerDeps {
  config: Config;
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
 * on the browser queue), which it does not poll. It also polls the queue itself, so it may run
 * scrapes other API replicas started.
 *
 * It runs in the background once started (after the API migrated the database): the API serves
 * before it is up (scrapes then go through the queue), and when it cannot connect or stops on
 * its own (Temporal went away) it is built again with backoff.
 */
export class ApiScrapeWorker {
  /** A client on the worker's connection, set while the worker runs. */
  private client: Client | undefined;
  /** The worker itself, set while it runs. */
  private worker: Worker | undefined;
  /**
   * Whether a scrape started now would likely run here: the worker runs and has free slots. A
   * page fetched ahead for a start that then went through the queue would be fetched twice.
   */
  get hasRoom(): boolean {
    return !!this.worker && this.worker.getStatus().numInFlightLocalActivities < EAGER_ROOM;
  }

  /** Whether the worker has run at all: until then the API is not ready (/readyz). */
  private ran = false;
  private readonly stopping = new AbortController();
  /** The scrapes this worker stored, for the requests of this process that wait for them. */
  readonly finishedScrapes = new FinishedScrapes();
  /** Pages the requests of this process began fetching for the scrapes this worker is to run. */
  private readonly prefetchedPages = new PrefetchedPages();
  /** The worker's fetcher and processing, set while the worker runs. */
  private http: HttpScraper | undefined;
  private done: Promise<void> = Promise.resolve();
  private closed: Promise<void> | undefined;

  constructor(private readonly deps: ApiScrapeWorkerDeps) {}

  /** A client whose starts on the scrape queue may run here eagerly; undefined while the worker is not running. */
  get eagerClient(): Client | undefined {
    return this.client;
  }

  /**
   * Begins fetching and processing a scrape's page while its workflow starts, for this worker's
   * local activity to take over (PrefetchedPages); undefined while the worker is not running.
   */
  prefetch(jobId: string, teamId: string, url: string, options: ScrapeOptions, deadline: number): Prefetch | undefined {
    const http = this.http;
    return http && this.prefetchedPages.start(jobId, (signal) => http.scrape(url, options, deadline, signal, { fairnessKey: teamId }));
  }

  /** Whether the worker has been running since start(), even if it is being built again now. */
  get hasRun(): boolean {
    return this.ran;
  }

  /** Starts the worker in the background; the database must be migrated. */
  start(): void {
    if (!this.stopping.signal.aborted) this.done = this.keepRunning();
  }

  /**
   * Stops taking scrapes, lets the running ones finish (SHUTDOWN_GRACE), then releases its
   * threads and connections. The API calls it as soon as it is told to stop, while its
   * requests drain; a second call waits for the first.
   */
  close(): Promise<void> {
    this.closed ??= (async () => {
      this.stopping.abort();
      await this.done;
    })();
    return this.closed;
  }

  private async keepRunning(): Promise<void> {
    const { config, logger } = this.deps;
    const stopped = this.stopping.signal;
    const stopRequested = new Promise<void>((resolve) => stopped.addEventListener('abort', () => resolve(), { once: true }));
    // Threads and a pool of its own: the pages it stores would otherwise queue the API's request
    // queries (key lookups, balances, job rows) behind them under load.
    const scraping = openHttpScraping(config, logger);
    const database = connectDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
    let bundle: WorkflowBundle | undefined;
    let delay = RESTART_DELAY_MS.initial;
    try {
      while (!stopped.aborted) {
        try {
          bundle ??= await workflowBundle(this.deps.tracing?.workflowInterceptorModules);
          const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
          try {
            const worker = await this.createWorker(connection, bundle, scraping, database);
            const interceptors = clientTracingInterceptors(!!this.deps.tracing);
            this.client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, ...(interceptors && { interceptors }) });
            this.http = scraping.http;
            this.worker = worker;
            this.ran = true;
            logger.info({ taskQueue: config.taskQueues.scrape }, 'api scrape worker running: scrapes start eagerly here');
            delay = RESTART_DELAY_MS.initial;
            // Until close(); a worker that fails on its own (Temporal gone for good) rejects here.
            await worker.runUntil(stopRequested);
          } finally {
            this.client = undefined;
            this.worker = undefined;
            this.http = undefined;
            await connection.close();
          }
        } catch (err) {
          logger.warn({ err, retryInMs: delay }, 'api scrape worker not running; scrapes go through the task queue to the workers until it is');
        }
        await sleep(delay, undefined, { signal: stopped }).catch(() => undefined);
        delay = Math.min(RESTART_DELAY_MS.max, delay * 2);
      }
    } finally {
      await Promise.all([scraping.close(), database.close()]);
    }
  }

  private createWorker(connection: NativeConnection, bundle: WorkflowBundle, scraping: HttpScraping, database: Database): Promise<Worker> {
    const { config, tracing } = this.deps;
    return Worker.create({
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: config.taskQueues.scrape,
      workflowBundle: bundle,
      // Only the plain-HTTP step, which the scrape workflow runs as a local activity; its
      // regular activities stay with the worker processes.
      activities: createHttpScrapeActivity({
        db: database.db,
        http: scraping.http,
        onFinished: (jobId, page) => this.finishedScrapes.settle(jobId, page),
        prefetched: (jobId, cancel) => this.prefetchedPages.take(jobId, cancel),
      }),
      enableNonLocalActivities: false,
      maxConcurrentWorkflowTaskExecutions: SCRAPE_SLOTS,
      maxConcurrentLocalActivityExecutions: SCRAPE_SLOTS,
      shutdownGraceTime: SHUTDOWN_GRACE,
      ...(tracing && { interceptors: { activity: tracing.interceptors.activity ?? [] }, sinks: tracing.sinks }),
    });
  }
}
