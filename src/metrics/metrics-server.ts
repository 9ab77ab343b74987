import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { metrics } from './registry';
import { temporalSdkSeries } from './sdk-series';

/** Where a process serves its metrics. */
export interface MetricsServerOptions {
  /** Interface to bind (HOST). */
  host: string;
  /** Port of /metrics (WORKER_METRICS_PORT, API_METRICS_PORT); 0 picks a free one (tests). */
  port: number;
  /**
   * URL of the Temporal SDK's own Prometheus exporter (TEMPORAL_METRICS_PORT,
   * API_TEMPORAL_METRICS_PORT), whose series are appended, so one scrape target has both;
   * absent when that exporter is off.
   */
  temporalMetricsUrl?: string | undefined;
  /** Sets the gauges that are read rather than counted, before each answer (the API's backlog). */
  refresh?: () => Promise<void>;
}

export interface MetricsServer {
  /** Where Prometheus scrapes it. */
  url: string;
  close(): Promise<void>;
}

/**
 * A small HTTP listener serving the process's /metrics (and nothing else), on a port of its own:
 * the series name every team with work in flight and the service's load, which are for the
 * operator's network, never for the public port the API answers clients on.
 */
export async function startMetricsServer(o: MetricsServerOptions, logger: Logger): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, code: 'NOT_FOUND', error: 'Only GET /metrics is served here' }));
      return;
    }
    void (async () => {
      await o.refresh?.();
      return Promise.all([metrics.metrics(), temporalSdkSeries(o.temporalMetricsUrl, logger)]);
    })().then(
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
