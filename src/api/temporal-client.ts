import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type ClientInterceptors } from '@temporalio/client';

type Interceptor = ReturnType<typeof makeGrpcRetryInterceptor>;

/** grpc-js backs off reconnecting up to 120 s; capped, the API serves within seconds of Temporal's return. */
const MAX_RECONNECT_BACKOFF_MS = 2_000;
/** Attempts of a call that starts or asks something: UNAVAILABLE is retried for about 2 s, not the SDK's 20. */
const PROMPT_ATTEMPTS = 5;
/** The long poll that waits on a result: its workflow already runs (and charges), so it keeps the SDK's patience. */
const RESULT_POLL = '/temporal.api.workflowservice.v1.WorkflowService/GetWorkflowExecutionHistory';

/**
 * Retries that answer a waiting client 503 promptly when Temporal is down, yet ride out a
 * frontend restart while a started job's result is awaited (a 503 then would invite a paid retry).
 */
function retryInterceptor(): Interceptor {
  const prompt = makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: PROMPT_ATTEMPTS }));
  const patient = makeGrpcRetryInterceptor(defaultGrpcRetryOptions());
  return (options, nextCall) => (options.method_definition.path === RESULT_POLL ? patient : prompt)(options, nextCall);
}

/**
 * The API's Temporal client. Its connection opens on first use, so the API starts before
 * Temporal is up, and it never memoizes a failed connect (no `ensureConnected`): the gRPC
 * channel redials on its own after an outage. `interceptors` add tracing, say.
 */
export function createApiTemporalClient(address: string, namespace: string, interceptors?: ClientInterceptors): Client {
  const connection = Connection.lazy({
    address,
    interceptors: [retryInterceptor()],
    channelArgs: { 'grpc.max_reconnect_backoff_ms': MAX_RECONNECT_BACKOFF_MS },
  });
  return new Client({ connection, namespace, ...(interceptors && { interceptors }) });
}
