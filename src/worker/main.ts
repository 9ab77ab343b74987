import { Client } from '@temporalio/client';
import { ConfigError, loadConfig } from '../config/env';
import { connectDatabase } from '../db/client';
import { startReconciler } from '../jobs/reconciler';
import { startSearchIndexer } from '../search/search-indexer';
import { createLogger } from '../log';
import { startMetricsServer } from '../metrics/metrics-server';
import { connectWhenTemporalIsUp, migrateWhenPostgresIsUp } from '../startup/wait-for-dependencies';
import { startTracing } from '../telemetry/tracing';
import { installTemporalRuntime } from '../temporal/install-runtime';
import { workerTracing } from '../telemetry/worker-tracing';
import { createWorkers } from './create-workers';

/** Worker entry point: polls the task queues named in WORKER_QUEUES until SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('worker', config.LOG_LEVEL);
  const temporalMetricsUrl = installTemporalRuntime(logger, { metricsPort: config.TEMPORAL_METRICS_PORT });
  const tracing = startTracing('wcs-worker', config.OTEL_EXPORTER_OTLP_ENDPOINT);
  // Nothing is open yet that needs closing, so a stop signal while waiting for Postgres or
  // Temporal ends the process (the SDK's own handler, installed with the runtime, only stops workers).
  const stop = () => {
    logger.info('worker stopped while waiting for its dependencies');
    process.exit(0);
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  await migrateWhenPostgresIsUp(config.DATABASE_URL, logger);
  const connection = await connectWhenTemporalIsUp(config.TEMPORAL_ADDRESS, logger);
  process.off('SIGINT', stop).off('SIGTERM', stop);
  const database = connectDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const { workers, dispose } = await createWorkers(config, database, connection, logger, tracing && { tracing: workerTracing(tracing) });
  const metricsServer =
    config.WORKER_METRICS_PORT > 0
      ? await startMetricsServer({ host: config.HOST, port: config.WORKER_METRICS_PORT, temporalMetricsUrl }, logger)
      : undefined;
  // Reconciliation reads every job's workflow; one per deployment's http workers is plenty.
  const reconciler = config.WORKER_QUEUES.includes('http')
    ? startReconciler(database.db, new Client({ connection, namespace: config.TEMPORAL_NAMESPACE }), config.RECONCILE_INTERVAL_SECONDS * 1000, logger)
    : undefined;
  // Pages are stored by the HTTP queue's activities; one indexer per such worker (they skip each
  // other's rows). A worker that searches no local index leaves the vectors to workers that do:
  // to_tsvector is the largest Postgres cost of a crawled page.
  const searchIndexer =
    config.WORKER_QUEUES.includes('http') && config.SEARCH_PROVIDER.includes('local') ? startSearchIndexer(database.db, config.SEARCH_INDEX_INTERVAL_MS, logger) : undefined;
  logger.info(
    {
      queues: workers.map((w) => w.options.taskQueue),
      temporal: config.TEMPORAL_ADDRESS,
      llm: config.llm ? `${config.llm.model} at ${config.llm.baseUrl}` : 'none',
      metrics: metricsServer?.url ?? 'off',
      tracing: config.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'off',
      searchIndexer: searchIndexer ? 'on' : 'off',
    },
    'worker started',
  );
  try {
    await Promise.all(workers.map((w) => w.run()));
  } finally {
    await reconciler?.stop();
    await searchIndexer?.stop();
    await metricsServer?.close();
    await dispose();
    await connection.close();
    await database.close();
    await tracing?.close();
    logger.info('worker stopped');
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
