import { ConfigError, loadConfig } from '../config/env';
import { migrateDatabase } from '../db/migrate';
import { createLogger } from '../log';
import { startTracing } from '../telemetry/tracing';
import { openApiDeps } from './api-deps';
import { createApp } from './app';
import { attachCrawlWatch } from './v2/watch-crawl';

/** API entry point: serves HTTP until SIGINT/SIGTERM, then drains in-flight requests. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('api', config.LOG_LEVEL);
  const tracing = startTracing('wcs-api', config.OTEL_EXPORTER_OTLP_ENDPOINT);
  await migrateDatabase(config.DATABASE_URL);
  const { deps, close } = openApiDeps(config, logger);
  const { app } = createApp(deps);
  const server = app.listen(config.PORT, config.HOST, () => logger.info({ url: config.PUBLIC_URL }, 'api listening'));
  server.requestTimeout = 0; // scrapes may legitimately take minutes; each has its own timeout
  const crawlWatch = attachCrawlWatch(server, deps);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    logger.info('api stopping');
    crawlWatch.close();
    server.close(() => {
      void close()
        .then(() => tracing?.close())
        .finally(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
