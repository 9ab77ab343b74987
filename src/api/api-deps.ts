import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Config } from '../config/env';
import { connectDatabase, type Db } from '../db/client';
import { ScrapeAdmission } from '../limits/scrape-admission';
import { QueueBacklog } from '../temporal/queue-backlog';
import { PublicUrlGate } from '../net/public-url-gate';
import { createImageStore } from '../screenshots/create-image-store';
import { ScreenshotStore } from '../screenshots/screenshot-store';
import { clientTracingInterceptors } from '../telemetry/client-tracing';
import type { WorkerTracing } from '../telemetry/worker-tracing';
import { ApiScrapeWorker } from './api-scrape-worker';
import { createApiTemporalClient } from './temporal-client';

/** What route handlers may use. Built once per process by main.ts (or by a test). */
export interface ApiDeps {
  config: Config;
  db: Db;
  temporal: Client;
  gate: PublicUrlGate;
  logger: Logger;
  /** Screenshot rows and images: the API serves them, the worker writes them. */
  screenshots: ScreenshotStore;
  /** Refuses scrapes and screenshots while the deployment is saturated. */
  admission: ScrapeAdmission;
  /** This process's own scrape worker (EAGER_SCRAPES), which runs the scrapes it starts eagerly. */
  scrapeWorker?: Pick<ApiScrapeWorker, 'eagerClient' | 'hasRun' | 'hasRoom' | 'finishedScrapes' | 'prefetch'>;
  /** The Temporal SDK's exporter for that worker, whose series /metrics appends. */
  temporalMetricsUrl?: string | undefined;
}

/** What the API process adds to its dependencies beyond what the configuration gives. */
export interface ApiProcessOptions {
  /** Run a scrape worker in this process (EAGER_SCRAPES; the API's main does, a test's app need not). */
  scrapeWorker?: boolean;
  /** Tracing of the scrape worker's workflows and activities (OTEL_EXPORTER_OTLP_ENDPOINT set). */
  tracing?: WorkerTracing | undefined;
  /** URL of the SDK's Prometheus exporter of this process (API_TEMPORAL_METRICS_PORT). */
  temporalMetricsUrl?: string | undefined;
}

/**
 * Opens what the API needs from its configuration; `close` releases it all. The scrape worker,
 * when asked for, is returned unstarted: it needs the migrated database.
 */
export function openApiDeps(config: Config, logger: Logger, options: ApiProcessOptions = {}): { deps: ApiDeps; scrapeWorker?: ApiScrapeWorker; close(): Promise<void> } {
  const database = connectDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const temporal = createApiTemporalClient(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE, clientTracingInterceptors(!!config.OTEL_EXPORTER_OTLP_ENDPOINT));
  const images = createImageStore(config);
  const screenshots = new ScreenshotStore(database.db, images, { publicUrl: config.PUBLIC_URL, ttlSeconds: config.SCREENSHOT_TTL_SECONDS });
  const backlog = new QueueBacklog(temporal, config.TEMPORAL_NAMESPACE, config.taskQueues.scrape, logger);
  const admission = new ScrapeAdmission(database.db, config.MAX_QUEUED_SCRAPES, backlog, config.TEAM_PAGES_IN_FLIGHT, logger);
  const scrapeWorker = options.scrapeWorker ? new ApiScrapeWorker({ config, logger, tracing: options.tracing }) : undefined;
  return {
    deps: { config, db: database.db, temporal, gate: new PublicUrlGate(config.ALLOW_PRIVATE_HOSTS), logger, screenshots, admission, ...(scrapeWorker && { scrapeWorker, temporalMetricsUrl: options.temporalMetricsUrl }) },
    ...(scrapeWorker && { scrapeWorker }),
    close: async () => {
      admission.close();
      await scrapeWorker?.close();
      await Promise.all([database.close(), temporal.connection.close(), images.close()]);
    },
  };
}
