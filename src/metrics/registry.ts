import { collectDefaultMetrics, Registry } from 'prom-client';

/** Prefix of every series this service defines (Temporal's own series keep `temporal_`). */
export const METRIC_PREFIX = 'wcs_';

/**
 * The process's Prometheus registry: the API serves it at /metrics on its own port, the worker
 * on WORKER_METRICS_PORT. Register a metric here with `registers: [metrics]`; a module that
 * defines metrics is imported by the process that updates them, so each process exposes its own.
 */
export const metrics = new Registry();
collectDefaultMetrics({ register: metrics, prefix: METRIC_PREFIX });
