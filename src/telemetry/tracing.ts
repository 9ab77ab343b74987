import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';

/** A process's trace export, when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
export interface Tracing {
  resource: Resource;
  /** Where finished spans go; the worker also hands it to the workflow span sink. */
  spanProcessor: SpanProcessor;
  /** Exports what is buffered and stops. */
  close(): Promise<void>;
}

/**
 * Registers the global OpenTelemetry tracer provider of this process (W3C trace context,
 * AsyncLocalStorage context), exporting spans over OTLP/HTTP to `<endpoint>/v1/traces`.
 * Without an endpoint nothing is registered and every span is a no-op.
 */
export function startTracing(serviceName: string, endpoint: string | undefined): Tracing | undefined {
  if (!endpoint) return undefined;
  const resource = new Resource({ 'service.name': serviceName });
  const spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }), { scheduledDelayMillis: 1_000 });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  return { resource, spanProcessor, close: () => provider.shutdown() };
}
