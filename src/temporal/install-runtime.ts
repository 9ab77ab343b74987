import { Runtime } from '@temporalio/worker';
import type { Logger } from 'pino';
import { CORE_LOG_FORWARDING, temporalSdkLogger } from './runtime-logger';

export interface TemporalRuntimeOptions {
  /**
   * Port of the SDK's own Prometheus exporter on 127.0.0.1 (task slots, poll latencies, activity
   * and workflow task counts and latencies, sticky cache); 0 or absent: no exporter.
   */
  metricsPort?: number;
  /** Signals on which the runtime stops this process's workers itself; the SDK's default when absent. */
  shutdownSignals?: NodeJS.Signals[];
}

/**
 * Installs the Temporal SDK runtime of a process that runs workers: its logs go to our JSON log
 * and, with a metrics port, its metrics to its Prometheus exporter. Returns that exporter's URL.
 */
export function installTemporalRuntime(logger: Logger, o: TemporalRuntimeOptions = {}): string | undefined {
  const metricsPort = o.metricsPort ?? 0;
  const bindAddress = `127.0.0.1:${metricsPort}`;
  const install = (withMetrics: boolean) =>
    Runtime.install({
      logger: temporalSdkLogger(logger),
      telemetryOptions: {
        ...CORE_LOG_FORWARDING,
        ...(withMetrics && { metrics: { prometheus: { bindAddress, countersTotalSuffix: true, useSecondsForDurations: true, unitSuffix: true } } }),
      },
      ...(o.shutdownSignals && { shutdownSignals: o.shutdownSignals }),
    });
  if (metricsPort === 0) {
    install(false);
    return undefined;
  }
  try {
    install(true);
    return `http://${bindAddress}/metrics`;
  } catch (err) {
    // A port taken (two processes configured alike on one host) costs the SDK's series, not the process.
    logger.error({ err, bindAddress }, 'the Temporal SDK metrics exporter could not start; this process runs without its series');
    install(false);
    return undefined;
  }
}
