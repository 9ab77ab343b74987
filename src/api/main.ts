import http from 'node:http';
import { ConfigError, loadConfig } from '../config/env';
import { createLogger } from '../log';
import { migrateWhenPostgresIsUp } from '../startup/wait-for-dependencies';
import { installTemporalRuntime } from '../temporal/install-runtime';
import { startTracing } from '../telemetry/tracing';
import { workerTracing } from '../telemetry/worker-tracing';
import { openApiDeps } from './api-deps';
import { startApiMetricsServer } from './api-metrics';
import { createApp } from './app';
import { startingApp } from './starting-app';
import { attachCrawlWatch } from './v2/watch-crawl';

/** API entry point: serves HTTP until SIGINT/SIGTERM, then drains in-flight requests. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('api', config.LOG_LEVEL);
  const tracing = startTracing('wcs-api', config.OTEL_EXPORTER_OTLP_ENDPOINT);
  // The API stops its own scrape worker when it stops (see stop below), not on the SDK's signals.
  const temporalMetricsUrl = config.EAGER_SCRAPES ? installTemporalRuntime(logger, { metricsPort: config.API_TEMPORAL_METRICS_PORT, shutdownSignals: [] }) : undefined;
  const { deps, scrapeWorker, close } = openApiDeps(config, logger, { scrapeWorker: config.EAGER_SCRAPES, tracing: tracing && workerTracing(tracing), temporalMetricsUrl });
  // Listening before Postgres is up and migrated: until then the starting app answers (503s),
  // so a restart during an outage serves clients as a running API does.
  let handle = startingApp(logger).callback();
  const server = http.createServer((req, res) => void handle(req, res));
  server.listen(config.PORT, config.HOST, () => logger.info({ url: config.PUBLIC_URL }, 'api listening'));
  server.requestTimeout = 0; // scrapes may legitimately take minutes; each has its own timeout
  const crawlWatch = attachCrawlWatch(server, deps);
  const metricsServer = config.API_METRICS_PORT > 0 ? await startApiMetricsServer(deps, config.API_METRICS_PORT) : undefined;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    logger.info('api stopping');
    // Its worker stops taking scrapes now and finishes the ones it runs while requests drain.
    void scrapeWorker?.close();
    crawlWatch.close();
    void metricsServer?.close();
    server.close(() => {
      void close()
        .then(() => tracing?.close())
        .finally(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await migrateWhenPostgresIsUp(config.DATABASE_URL, logger);
  scrapeWorker?.start();
  handle = createApp(deps).app.callback();
  logger.info({ metrics: metricsServer?.url ?? 'off' }, 'api serving');
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
