import { Runtime } from '@temporalio/worker';
import type { Logger } from 'pino';
import { CORE_LOG_FORWARDING, temporalSdkLogger } from '../temporal/runtime-logger';

/**
 * Installs the Temporal SDK runtime of a worker process: its logs go to our JSON log and, when
 * `metricsPort` is not 0, its own metrics (task slots, poll latencies, activity and workflow
 * task counts and latencies, sticky cache) are served by its Prometheus exporter on 127.0.0.1.
 * Returns that exporter's URL.
 */
export function installWorkerRuntime(logger: Logger, metricsPort: number): string | undefined {
  const bindAddress = `127.0.0.1:${metricsPort}`;
  Runtime.install({
    logger: temporalSdkLogger(logger),
    telemetryOptions: {
      ...CORE_LOG_FORWARDING,
      ...(metricsPort > 0 && { metrics: { prometheus: { bindAddress, countersTotalSuffix: true, useSecondsForDurations: true, unitSuffix: true } } }),
    },
  });
  return metricsPort > 0 ? `http://${bindAddress}/metrics` : undefined;
}
