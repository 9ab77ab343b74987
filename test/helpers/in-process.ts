import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { inject } from 'vitest';
import { openApiDeps } from '../../src/api/api-deps';
import { startApiMetricsServer } from '../../src/api/api-metrics';
import { createApp } from '../../src/api/app';
import { loadConfig, type Config } from '../../src/config/env';
import { connectDatabase } from '../../src/db/client';
import { createLogger } from '../../src/log';
import { installTemporalRuntime } from '../../src/temporal/install-runtime';
import { createWorkers, type WorkerExtensions } from '../../src/worker/create-workers';

/**
 * Configuration for an API or worker run inside the test process, against the run's Temporal
 * and database, with the fixture site allowlisted. A private task-queue prefix keeps its work
 * away from the shared stack.
 */
export function inProcessConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: inject('databaseUrl'),
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    CHROMIUM_PATH: inject('chromiumPath'),
    ALLOW_PRIVATE_HOSTS: new URL(inject('fixtureUrl')).host,
    DATA_DIR: path.join(inject('logDir'), 'in-process'),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '0',
    ...env,
  });
}

export interface Running {
  close(): Promise<void>;
}

/** The Koa app of src/api/app.ts on a free port of this process, and its /metrics on another. */
export async function startInProcessApi(config: Config): Promise<Running & { url: string; metricsUrl: string }> {
  const { deps, close } = openApiDeps(config, createLogger('api', config.LOG_LEVEL));
  const { app } = createApp(deps);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const metricsServer = await startApiMetricsServer(deps, 0);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    metricsUrl: metricsServer.url,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await metricsServer.close();
      await close();
    },
  };
}

let runtimeInstalled = false;

/** The workers of src/worker/create-workers.ts, polling until closed. */
export async function startInProcessWorkers(config: Config, extensions: WorkerExtensions = {}): Promise<Running> {
  if (!runtimeInstalled) {
    // The SDK logs to the console by default; route it through our (quiet) logger instead.
    installTemporalRuntime(createLogger('worker', config.LOG_LEVEL));
    runtimeInstalled = true;
  }
  const database = connectDatabase(config.DATABASE_URL, 2);
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const { workers, dispose } = await createWorkers(config, database, connection, createLogger('worker', config.LOG_LEVEL), extensions);
  const running = Promise.all(workers.map((w) => w.run()));
  return {
    async close() {
      for (const w of workers) w.shutdown();
      await running;
      await dispose();
      await connection.close();
      await database.close();
    },
  };
}
