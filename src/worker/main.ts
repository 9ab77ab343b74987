import { NativeConnection } from '@temporalio/worker';
import { ConfigError, loadConfig } from '../config/env';
import { connectDatabase } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { createLogger } from '../log';
import { installTemporalLogger } from '../temporal/runtime-logger';
import { createWorkers } from './create-workers';

/** Worker entry point: polls the task queues named in WORKER_QUEUES until SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('worker', config.LOG_LEVEL);
  installTemporalLogger(logger);
  const database = connectDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  await migrateDatabase(config.DATABASE_URL);
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const { workers, dispose } = await createWorkers(config, database, connection, logger);
  logger.info(
    { queues: workers.map((w) => w.options.taskQueue), temporal: config.TEMPORAL_ADDRESS, llm: config.llm ? `${config.llm.model} at ${config.llm.baseUrl}` : 'none' },
    'worker started',
  );
  try {
    await Promise.all(workers.map((w) => w.run()));
  } finally {
    await dispose();
    await connection.close();
    await database.close();
    logger.info('worker stopped');
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
