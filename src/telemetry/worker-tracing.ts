import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  type OpenTelemetryWorkflowExporter,
} from '@temporalio/interceptors-opentelemetry';
import type { InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import type { Tracing } from './tracing';

/** What a worker adds to trace workflows and activities. */
export interface WorkerTracing {
  /** Activity spans, children of the workflow's context that came in the activity's headers. */
  interceptors: WorkerInterceptors;
  /** The sink through which workflow code (sandboxed, without I/O) hands its spans out. */
  sinks: InjectedSinks<{ exporter: OpenTelemetryWorkflowExporter }>;
  /** Workflow interceptor modules, bundled with the workflows (the bundle is built ahead). */
  workflowInterceptorModules: string[];
}

/** The workflow interceptor modules tracing bundles with the workflows (also built ahead by `npm run build`). */
export const TRACING_WORKFLOW_INTERCEPTOR_MODULES = [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];

/** Temporal's OpenTelemetry interceptors, wired to this process's span processor. */
export function workerTracing(tracing: Tracing): WorkerTracing {
  return {
    interceptors: {
      activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
    workflowInterceptorModules: TRACING_WORKFLOW_INTERCEPTOR_MODULES,
  };
}
