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
  /** The task-queue prefix it runs on (schedules and queues are named after it). */
  queuePrefix: string;
  /** The API's Prometheus endpoint (API_METRICS_PORT). */
  apiMetricsUrl: string;
  /** The worker's Prometheus endpoint (WORKER_METRICS_PORT). */
  workerMetricsUrl: string;
  api: ManagedProcess;
  worker: ManagedProcess;
  /** Starts a new worker process with the same settings (after the old one was killed). */
  restartWorker(): Promise<ManagedProcess>;
  /** Starts one more worker process polling the same queues (its metrics on ports of its own); stopped with the stack. */
  addWorker(): Promise<ManagedProcess>;
  /** Starts a new API process on the same port (after the old one was killed). */
  restartApi(): Promise<ManagedProcess>;
  stop(): Promise<void>;
}

/** The API and the worker as separate processes, as `npm start` runs them, with logs in `logDir`. */
export async function startStack(o: StackOptions): Promise<Stack> {
  mkdirSync(o.logDir, { recursive: true });
  const port = await freePort();
  // Ports of its own: several stacks' workers run on one machine.
  const workerMetricsPort = await freePort();
  const apiMetricsPort = await freePort();
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
    WORKER_METRICS_PORT: String(workerMetricsPort),
    API_METRICS_PORT: String(apiMetricsPort),
    TEMPORAL_METRICS_PORT: String(await freePort()),
    API_TEMPORAL_METRICS_PORT: String(await freePort()),
    ...o.env,
  };
  const logTo = (name: string) => {
    const fd = openSync(path.join(o.logDir, `${name}.log`), 'a');
    return ['ignore', fd, fd] as const;
  };
  let worker = startService('worker', env, [...logTo('worker')]);
  let api = startService('api', env, [...logTo('api')]);
  const extraWorkers: ManagedProcess[] = [];
  const apiUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(apiUrl, 120_000, api, worker);
  } catch (err) {
    // The caller gets no Stack to stop: without this, a stack that never became ready would
    // keep its processes running after the test run ends.
    await Promise.all([api.stop(), worker.stop()]);
    throw err;
  }
  return {
    apiUrl,
    queuePrefix: o.queuePrefix,
    apiMetricsUrl: `http://127.0.0.1:${apiMetricsPort}/metrics`,
    workerMetricsUrl: `http://127.0.0.1:${workerMetricsPort}/metrics`,
    get api() {
      return api;
    },
    get worker() {
      return worker;
    },
    async restartWorker() {
      worker = startService('worker', env, [...logTo('worker')]);
      return worker;
    },
    async addWorker() {
      const ports = { WORKER_METRICS_PORT: String(await freePort()), TEMPORAL_METRICS_PORT: String(await freePort()) };
      const extra = startService('worker', { ...env, ...ports }, [...logTo(`worker-${extraWorkers.length + 2}`)]);
      extraWorkers.push(extra);
      return extra;
    },
    async restartApi() {
      api = startService('api', env, [...logTo('api')]);
      return api;
    },
    async stop() {
      await Promise.all([api.stop(), worker.stop(), ...extraWorkers.map((w) => w.stop())]);
    },
  };
}
