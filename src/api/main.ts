import { ConfigError, loadConfig } from '../config/env';
import { migrateDatabase } from '../db/migrate';
import { createLogger } from '../log';
import { openApiDeps } from './api-deps';
import { createApp } from './app';

/** API entry point: serves HTTP until SIGINT/SIGTERM, then drains in-flight requests. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('api', config.LOG_LEVEL);
  await migrateDatabase(config.DATABASE_URL);
  const { deps, close } = openApiDeps(config, logger);
  const { app } = createApp(deps);
  const server = app.listen(config.PORT, config.HOST, () => logger.info({ url: config.PUBLIC_URL }, 'api listening'));
  server.requestTimeout = 0; // scrapes may legitimately take minutes; each has its own timeout
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    logger.info('api stopping');
    server.close(() => {
      void close().finally(() => process.exit(0));
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
