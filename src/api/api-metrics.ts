import { refreshBacklogGauges } from '../metrics/backlog-metrics';
import { startMetricsServer, type MetricsServer } from '../metrics/metrics-server';
import type { ApiDeps } from './api-deps';

/**
 * The API process's Prometheus /metrics on a port of its own (API_METRICS_PORT, on HOST), not on
 * the public port: requests by route and status, latency histograms, jobs and pages in flight per
 * team, the task queues' backlog (read from Temporal and Postgres at each scrape), and the SDK
 * series of its own scrape worker.
 */
export function startApiMetricsServer(deps: ApiDeps, port: number): Promise<MetricsServer> {
  const { config } = deps;
  return startMetricsServer(
    {
      host: config.HOST,
      port,
      temporalMetricsUrl: deps.temporalMetricsUrl,
      refresh: () => refreshBacklogGauges({ db: deps.db, temporal: deps.temporal, namespace: config.TEMPORAL_NAMESPACE, queues: Object.values(config.taskQueues) }),
    },
    deps.logger,
  );
}
