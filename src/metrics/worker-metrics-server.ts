import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { metrics } from './registry';
import { temporalSdkSeries } from './sdk-series';

/** Where the worker serves its metrics. */
export interface WorkerMetricsOptions {
  /** Interface to bind (HOST). */
  host: string;
  /** Port of /metrics (WORKER_METRICS_PORT); 0 picks a free one (tests). */
  port: number;
  /**
   * URL of the Temporal SDK's own Prometheus exporter (TEMPORAL_METRICS_PORT), whose series
   * are appended, so one scrape target has both; absent when that exporter is off.
   */
  temporalMetricsUrl?: string;
}

export interface WorkerMetricsServer {
  /** Where Prometheus scrapes it. */
  url: string;
  close(): Promise<void>;
}

/** A small HTTP listener serving the worker process's /metrics (and nothing else). */
export async function startWorkerMetricsServer(o: WorkerMetricsOptions, logger: Logger): Promise<WorkerMetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, code: 'NOT_FOUND', error: 'Only GET /metrics is served here' }));
      return;
    }
    void Promise.all([metrics.metrics(), temporalSdkSeries(o.temporalMetricsUrl, logger)]).then(
      ([own, sdk]) => res.writeHead(200, { 'content-type': metrics.contentType }).end(sdk ? `${own}\n${sdk}` : own),
      (err: unknown) => {
        logger.error({ err }, 'metrics failed');
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, code: 'INTERNAL_ERROR', error: 'Collecting the metrics failed' }));
      },
    );
  });
  server.listen(o.port, o.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${o.host === '0.0.0.0' ? '127.0.0.1' : o.host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
