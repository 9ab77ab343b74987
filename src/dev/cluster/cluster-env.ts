import path from 'node:path';
import type { ComposeFile } from '../compose-file';
import { imageEnv } from './dockerfile-env';

/** Where the cluster's dependencies listen on this machine, for the compose file's service names. */
export interface Addresses {
  /** The `postgres` service's port (5432 in compose). */
  postgresPort: number;
  /** The `temporal` service's frontend port (7233 in compose). */
  temporalPort: number;
}

/**
 * Variables the cluster may set that docker-compose.yml does not: where a Temporal server's own
 * services listen (one server per container there, so the image's defaults never collide). They
 * place things on one machine; none changes how a service behaves.
 */
export const PLACEMENT_ONLY = [
  'FRONTEND_GRPC_PORT',
  'FRONTEND_HTTP_PORT',
  'FRONTEND_MEMBERSHIP_PORT',
  'HISTORY_GRPC_PORT',
  'HISTORY_MEMBERSHIP_PORT',
  'MATCHING_GRPC_PORT',
  'MATCHING_MEMBERSHIP_PORT',
  'WORKER_GRPC_PORT',
  'WORKER_MEMBERSHIP_PORT',
] as const;

/** What a process needs from the machine itself: programs, a home and a temp folder, the locale. */
const SYSTEM = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'];

/** The compose file's addresses (`postgres:5432`, `temporal:7233`) as this machine's. */
function relocate(value: string, a: Addresses): string {
  return value.replace(/\bpostgres:5432\b/g, `127.0.0.1:${a.postgresPort}`).replace(/\btemporal:7233\b/g, `127.0.0.1:${a.temporalPort}`);
}

export interface ServiceEnvOptions {
  /** Values that differ on one machine (ports, folders, the bind address); each must name a variable compose gives the service. */
  local?: Record<string, string>;
  /** Start from the image's ENV too: the services of our own image (api and workers). */
  ourImage?: boolean;
  /** Added as they are: a test's knobs (ALLOW_PRIVATE_HOSTS, a rate limit), never the cluster's own. */
  extra?: Record<string, string>;
}

/**
 * The environment of one compose service run as a local process: the machine's PATH and home,
 * the image's ENV (our own image), the service's `environment` from docker-compose.yml with its
 * addresses relocated, then the local values. Setting a variable compose does not give the
 * service throws: whatever the local cluster needs, the compose file has too (PLACEMENT_ONLY
 * aside).
 */
export function serviceEnv(compose: ComposeFile, name: string, addresses: Addresses, o: ServiceEnvOptions = {}): NodeJS.ProcessEnv {
  const service = compose.services[name];
  if (!service) throw new Error(`docker-compose.yml has no service ${name}`);
  const env: NodeJS.ProcessEnv = Object.fromEntries(SYSTEM.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
  Object.assign(env, o.ourImage ? imageEnv() : {});
  for (const [key, value] of Object.entries(service.environment ?? {})) env[key] = relocate(value, addresses);
  for (const [key, value] of Object.entries(o.local ?? {})) {
    if (!(key in env) && !(PLACEMENT_ONLY as readonly string[]).includes(key)) {
      throw new Error(`the local cluster sets ${key} on ${name}, which docker-compose.yml does not give that service: add it there`);
    }
    env[key] = value;
  }
  return { ...env, ...o.extra };
}

const withPath = (dir: string) => `${dir}${path.delimiter}${process.env.PATH ?? ''}`;

/** temporal-schema: Postgres here, and temporal-sql-tool on PATH as in the admin-tools image. */
export function schemaLocalEnv(postgresPort: number, sqlTool: string): Record<string, string> {
  return { POSTGRES_HOST: '127.0.0.1', POSTGRES_PORT: String(postgresPort), PATH: withPath(path.dirname(sqlTool)) };
}

/** temporal-namespace: the `temporal` CLI on PATH, as in the admin-tools image. */
export function namespaceLocalEnv(cli: string): Record<string, string> {
  return { PATH: withPath(path.dirname(cli)) };
}

/** The ports of a Temporal server's own services (its frontend's is Addresses.temporalPort). */
export type TemporalPorts = Record<Exclude<(typeof PLACEMENT_ONLY)[number], 'FRONTEND_GRPC_PORT'>, number>;

/** temporal: Postgres and the dynamic config here, bound to the loopback address, on ports of its own. */
export function temporalLocalEnv(a: Addresses, ports: TemporalPorts, dynamicConfigFile: string): Record<string, string> {
  return {
    POSTGRES_SEEDS: '127.0.0.1',
    DB_PORT: String(a.postgresPort),
    VISIBILITY_DB_PORT: String(a.postgresPort),
    // One machine: bind and announce the loopback address (a container binds 0.0.0.0 and announces its own).
    BIND_ON_IP: '127.0.0.1',
    DYNAMIC_CONFIG_FILE_PATH: dynamicConfigFile,
    FRONTEND_GRPC_PORT: String(a.temporalPort),
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  };
}

/** temporal-ui: its port, and the origin it is reached at. */
export function uiLocalEnv(port: number): Record<string, string> {
  return { TEMPORAL_UI_PORT: String(port), TEMPORAL_CORS_ORIGINS: `http://127.0.0.1:${port}` };
}

/** Where one API replica or worker listens and keeps its files. */
export interface MemberPlacement {
  /** An API replica's public port; absent for a worker. */
  port?: number;
  /** Its /metrics port (API_METRICS_PORT or WORKER_METRICS_PORT). */
  metricsPort: number;
  /** Its Temporal SDK exporter's port (API_TEMPORAL_METRICS_PORT or TEMPORAL_METRICS_PORT). */
  sdkMetricsPort: number;
  /** The deployment's one public address: the first replica's. */
  publicUrl: string;
  /** The shared file store (DATA_DIR). */
  dataDir: string;
  chromium: string;
}

/** api, worker-http, worker-browser: loopback only, ports of their own, the shared folder, this machine's Chromium. */
export function memberLocalEnv(p: MemberPlacement): Record<string, string> {
  const ports: Record<string, string> =
    p.port !== undefined
      ? { PORT: String(p.port), API_METRICS_PORT: String(p.metricsPort), API_TEMPORAL_METRICS_PORT: String(p.sdkMetricsPort) }
      : { WORKER_METRICS_PORT: String(p.metricsPort), TEMPORAL_METRICS_PORT: String(p.sdkMetricsPort) };
  // One public address, as behind a load balancer: links and screenshot URLs name the first replica.
  return { HOST: '127.0.0.1', PUBLIC_URL: p.publicUrl, ...ports, DATA_DIR: p.dataDir, CHROMIUM_PATH: p.chromium };
}
