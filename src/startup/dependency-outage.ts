import { isGrpcServiceError } from '@temporalio/client';
import { DrizzleQueryError } from 'drizzle-orm';
import postgres from 'postgres';
import { AppError } from '../errors';

/**
 * What a client is told to wait during an outage. postgres.js dials again on the next query and
 * the Temporal channel redials at least every 2 s (temporal-client.ts), so a retry after this
 * long meets a dependency that came back; sooner would only add load to a restart.
 */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** gRPC status UNAVAILABLE: the Temporal frontend could not be reached or dropped the call. */
const GRPC_UNAVAILABLE = 14;

/**
 * postgres.js's connection errors (node_modules/postgres README, "Errors") and the SQLSTATEs of
 * a server that is unreachable, shutting down, starting up or out of connections.
 */
const POSTGRES_UNAVAILABLE = new Set([
  'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT',
  '08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '53300',
]);

/** Node's socket and DNS errors: Postgres's when drizzle wrapped them, else the image store's. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/** Names what the failure says is down, searching the cause chain (drizzle and Temporal wrap errors). */
function unreachableDependency(err: unknown): string | undefined {
  let fromPostgres = false;
  let network = false;
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (isGrpcServiceError(e) && e.code === GRPC_UNAVAILABLE) return 'Temporal';
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && POSTGRES_UNAVAILABLE.has(code)) return 'Postgres';
    fromPostgres ||= e instanceof DrizzleQueryError || e instanceof postgres.PostgresError;
    network ||= typeof code === 'string' && UNREACHABLE.has(code);
  }
  if (!network) return undefined;
  return fromPostgres ? 'Postgres' : 'A service the API depends on';
}

/** SERVICE_UNAVAILABLE, with Retry-After, for a failure that means a dependency is unreachable; undefined for any other. */
export function dependencyOutage(err: unknown): AppError | undefined {
  const dependency = unreachableDependency(err);
  if (!dependency) return undefined;
  return new AppError('SERVICE_UNAVAILABLE', `${dependency} is unavailable; retry in ${OUTAGE_RETRY_AFTER_SECONDS} s`, undefined, {
    cause: err,
    retryAfterSeconds: OUTAGE_RETRY_AFTER_SECONDS,
  });
}
