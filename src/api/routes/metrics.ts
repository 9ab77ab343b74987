import { z } from 'zod';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';
import { refreshBacklogGauges } from '../../metrics/backlog-metrics';
import { metrics } from '../../metrics/registry';
import { temporalSdkSeries } from '../../metrics/sdk-series';

/**
 * GET /metrics on the API's own port, in the Prometheus text format, without a key: like
 * /healthz it is for the operator's network, and it names no customer data beyond team ids.
 */
export function registerMetricsRoute(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'get',
    path: '/metrics',
    tag: 'Operations',
    summary: 'Prometheus metrics of this API process',
    description: 'Requests by route and status, latency histograms, jobs and pages in flight per team, task-queue backlog, and the Temporal SDK series of its own scrape worker; see docs/operations.md, "Metrics".',
    auth: false,
    responses: { 200: { description: 'Prometheus text exposition format', schema: z.string(), contentType: 'text/plain' } },
    handler: async (ctx) => {
      await refreshBacklogGauges({ db: deps.db, temporal: deps.temporal, namespace: deps.config.TEMPORAL_NAMESPACE, queues: Object.values(deps.config.taskQueues) });
      const [own, sdk] = await Promise.all([metrics.metrics(), temporalSdkSeries(deps.temporalMetricsUrl, deps.logger)]);
      ctx.type = metrics.contentType;
      ctx.body = sdk ? `${own}\n${sdk}` : own;
    },
  });
}
