import type { ClientInterceptors } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';

/**
 * A Temporal client's interceptors when tracing is on: starting a workflow is a span, child of
 * the active request span, whose context travels in the workflow's headers to its workflow and
 * activity spans on the worker.
 */
export function clientTracingInterceptors(tracingOn: boolean): ClientInterceptors | undefined {
  return tracingOn ? { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } : undefined;
}
