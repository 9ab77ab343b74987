import { mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import type { ManagedProcess } from '../../src/dev/child-process';
import { startService, waitUntilReady } from '../../src/dev/services';
import { freePort } from './free-port';

export interface StackOptions {
  databaseUrl: string;
  temporalAddress: string;
  chromiumPath: string;
  /** `host:port` entries the gate lets through (the fixture servers). */
  allowPrivateHosts: string[];
  /** Task-queue prefix; a private one keeps this stack's work away from the shared stack. */
  queuePrefix: string;
  logDir: string;
  env?: Record<string, string>;
}

export interface Stack {
  apiUrl: string;
  api: ManagedProcess;
  worker: ManagedProcess;
  /** Starts a new worker process with the same settings (after the old one was killed). */
  restartWorker(): Promise<ManagedProcess>;
  stop(): Promise<void>;
}

/** The API and the worker as separate processes, as `npm start` runs them, with logs in `logDir`. */
export async function startStack(o: StackOptions): Promise<Stack> {
  mkdirSync(o.logDir, { recursive: true });
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATABASE_URL: o.databaseUrl,
    TEMPORAL_ADDRESS: o.temporalAddress,
    CHROMIUM_PATH: o.chromiumPath,
    ALLOW_PRIVATE_HOSTS: o.allowPrivateHosts.join(','),
    TEMPORAL_TASK_QUEUE_PREFIX: o.queuePrefix,
    DATA_DIR: path.join(o.logDir, 'data'),
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '0',
    ...o.env,
  };
  const logTo = (name: string) => {
    const fd = openSync(path.join(o.logDir, `${name}.log`), 'a');
    return ['ignore', fd, fd] as const;
  };
  let worker = startService('worker', env, [...logTo('worker')]);
  const api = startService('api', env, [...logTo('api')]);
  const apiUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(apiUrl, 120_000, api, worker);
  return {
    apiUrl,
    api,
    get worker() {
      return worker;
    },
    async restartWorker() {
      worker = startService('worker', env, [...logTo('worker')]);
      return worker;
    },
    async stop() {
      await Promise.all([api.stop(), worker.stop()]);
    },
  };
}
