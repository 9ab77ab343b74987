import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import postgres from 'postgres';
import { buildIfChanged } from '../build';
import { ensureChromium } from '../chromium-setup';
import { waitFor } from '../child-process';
import { hostPath, readComposeFile, type ComposeFile } from '../compose-file';
import { freeLowPort, freePort } from '../free-port';
import { ROOT } from '../../config/paths';
import { postgresBinDir, preparePostgresServer, type PostgresServer } from '../postgres-server';
import { ensureProductionNode } from '../production-node';
import { findTemporalCli } from '../temporal-cli';
import { ensureTemporalServer, ensureTemporalUi } from '../temporal-server-install';
import { memberLocalEnv, namespaceLocalEnv, schemaLocalEnv, serviceEnv, temporalLocalEnv, uiLocalEnv, type Addresses, type TemporalPorts } from './cluster-env';
import { startClusterService, type ClusterService } from './cluster-service';
import { runOneShot } from './one-shot';

/** How many of each of our services the cluster runs: two API replicas, two HTTP workers, a browser worker. */
export const REPLICAS = { api: 2, 'worker-http': 2, 'worker-browser': 1 } as const;
type OurService = keyof typeof REPLICAS;

export interface ClusterOptions {
  /** The cluster's folder: Postgres' data, the services' DATA_DIR (the shared file store), the logs. */
  dir: string;
  /** The API replicas' ports; free ones when absent. */
  apiPorts?: number[];
  /** The Temporal frontend's port; a free one when absent. */
  temporalPort?: number;
  /** The Temporal UI's port; a free one when absent. */
  uiPort?: number;
  /** Run the Temporal UI (default true). */
  ui?: boolean;
  /** A Postgres to throw away (fsync off), for tests. */
  throwaway?: boolean;
  /** Variables for the API and workers beyond the compose file's: a test's knobs (ALLOW_PRIVATE_HOSTS, ...). */
  env?: Record<string, string>;
  /** Called when a service keeps crashing right after start (default: logged). */
  onGiveUp?: (name: string) => void;
  log: (message: string) => void;
}

/** One of our processes (an API replica or a worker), with the URLs it answers on. */
export interface ClusterMember extends ClusterService {
  /** The public API (replicas only). */
  url?: string;
  /** Its Prometheus /metrics (API_METRICS_PORT, WORKER_METRICS_PORT). */
  metricsUrl: string;
}

export interface Cluster {
  /** The API replicas' public URLs, in order. */
  apiUrls: string[];
  apis: ClusterMember[];
  httpWorkers: ClusterMember[];
  browserWorkers: ClusterMember[];
  /** Temporal frontend, host:port. */
  temporalAddress: string;
  temporal: ClusterService;
  /** The Temporal Web UI, when run. */
  uiUrl?: string;
  postgres: PostgresServer;
  /** The service's database (DATABASE_URL of the compose file, here). */
  databaseUrl: string;
  /** What the services share as DATA_DIR: screenshots on the file store. */
  dataDir: string;
  logDir: string;
  /** The Node.js binary the API and workers run on. */
  node: string;
  /** The Chromium the browser worker runs (CHROMIUM_PATH). */
  chromiumPath: string;
  /** The task-queue prefix (TEMPORAL_TASK_QUEUE_PREFIX). */
  queuePrefix: string;
  /** Stops every process, ours first, then Temporal, then Postgres. */
  stop(): Promise<void>;
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`: compose's health check of Temporal (`nc -z`). */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** An HTTP GET answered 200: the compose file's health checks of the API (/healthz) and the workers (/metrics). */
async function answers(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  await response.arrayBuffer();
  return response.status === 200;
}

/** Creates the service's database, as the postgres image does for POSTGRES_DB on first start. */
async function createDatabase(server: PostgresServer, name: string): Promise<void> {
  const sql = postgres(server.url('postgres'), { max: 1, onnotice: () => {} });
  try {
    const [exists] = await sql`select 1 from pg_database where datname = ${name}`;
    if (!exists) await sql.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await sql.end({ timeout: 2 });
  }
}

/** The container command of a service, run here: `node` is the production Node, paths are the repository's. */
function localCommand(compose: ComposeFile, name: string, node: string): [string, string[]] {
  const command = compose.services[name]?.command;
  if (!command?.length) throw new Error(`docker-compose.yml gives ${name} no command`);
  const [program, ...args] = command;
  return [program === 'node' ? node : program!, args];
}

/**
 * The production topology of docker-compose.yml as local processes, from the same code (the
 * production build, on the production Node) and the same environment variables: Postgres with
 * the service's and Temporal's databases, Temporal's schema set up by temporal-sql-tool, the
 * Temporal server on Postgres with the dynamic config of deploy/temporal, the namespace and its
 * search attributes, the Temporal UI, two API replicas, two HTTP workers and a browser worker.
 * Each long-running process is restarted when it exits, as `restart: unless-stopped` does.
 */
export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const compose = readComposeFile();
  const logDir = path.join(o.dir, 'logs');
  const dataDir = path.join(o.dir, 'data');
  mkdirSync(logDir, { recursive: true });
  mkdirSync(dataDir, { recursive: true });

  const node = ensureProductionNode(o.log);
  const temporalInstall = ensureTemporalServer(o.log);
  const uiInstall = o.ui === false ? undefined : ensureTemporalUi(o.log);
  const cli = findTemporalCli(o.log);
  if (!cli) throw new Error('the Temporal CLI is needed to register the namespace (deploy/temporal/setup-namespace.sh)');
  const chromium = ensureChromium(o.log);
  await buildIfChanged(o.log);

  const addresses: Addresses = { postgresPort: await freePort(), temporalPort: o.temporalPort ?? (await freeLowPort()) };
  // Our services stop together (each would be restarted if it exited while waiting its turn), then the rest in reverse order of start.
  const members: Record<OurService, ClusterMember[]> = { api: [], 'worker-http': [], 'worker-browser': [] };
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    const failed = (err: unknown) => o.log(`while stopping: ${String(err)}`);
    await Promise.all(Object.values(members).flat().map((m) => m.stop().catch(failed)));
    for (const s of stops.reverse()) await s().catch(failed);
    stops.length = 0;
  };
  const onGiveUp = o.onGiveUp ?? ((name: string) => o.log(`${name} keeps crashing right after start; given up (see ${path.join(logDir, `${name}.log`)})`));

  try {
    // postgres
    const pgEnv = compose.services.postgres?.environment ?? {};
    const binDir = postgresBinDir();
    if (!binDir) throw new Error('initdb and pg_ctl not found: install PostgreSQL server binaries (Debian: postgresql)');
    const pg = await preparePostgresServer({
      binDir,
      dir: path.join(o.dir, 'postgres'),
      port: addresses.postgresPort,
      user: pgEnv.POSTGRES_USER ?? 'postgres',
      ...(pgEnv.POSTGRES_PASSWORD && { password: pgEnv.POSTGRES_PASSWORD }),
      ...(o.throwaway && { throwaway: true }),
    });
    o.log(`starting Postgres on 127.0.0.1:${pg.port}...`);
    await pg.start();
    stops.push(() => pg.stop());
    const database = pgEnv.POSTGRES_DB ?? pg.user;
    await waitFor('Postgres (pg_isready)', () => pg.isReady(database), 60_000);
    await createDatabase(pg, database);

    // A setup job of the compose file (temporal-schema, temporal-namespace): its own script, through its bind mount.
    const runSetupJob = async (name: string, local: Record<string, string>) => {
      const service = compose.services[name]!;
      const [shell, ...args] = service.entrypoint!.map((a) => hostPath(service, a));
      await runOneShot({ name, command: shell!, args, env: serviceEnv(compose, name, addresses, { local }), cwd: ROOT, logDir, tries: 5 });
    };
    o.log('setting up Temporal\'s databases with temporal-sql-tool...');
    await runSetupJob('temporal-schema', schemaLocalEnv(pg.port, temporalInstall.sqlTool));

    // temporal: the server's own configuration template (config/docker.yaml), filled from the environment as in the image
    const temporalService = compose.services.temporal!;
    const temporalPorts: TemporalPorts = {
      FRONTEND_HTTP_PORT: await freeLowPort(),
      FRONTEND_MEMBERSHIP_PORT: await freeLowPort(),
      HISTORY_GRPC_PORT: await freeLowPort(),
      HISTORY_MEMBERSHIP_PORT: await freeLowPort(),
      MATCHING_GRPC_PORT: await freeLowPort(),
      MATCHING_MEMBERSHIP_PORT: await freeLowPort(),
      WORKER_GRPC_PORT: await freeLowPort(),
      WORKER_MEMBERSHIP_PORT: await freeLowPort(),
    };
    const dynamicConfig = hostPath(temporalService, temporalService.environment!.DYNAMIC_CONFIG_FILE_PATH!);
    const temporalEnv = serviceEnv(compose, 'temporal', addresses, { local: temporalLocalEnv(addresses, temporalPorts, dynamicConfig) });
    o.log(`starting the Temporal server on 127.0.0.1:${addresses.temporalPort} (Postgres persistence)...`);
    const temporal = startClusterService({
      name: 'temporal',
      command: temporalInstall.server,
      args: ['--root', temporalInstall.root, '--config', 'config', '--env', 'docker', 'start'],
      env: temporalEnv,
      cwd: ROOT,
      logDir,
      log: o.log,
      onGiveUp,
    });
    stops.push(() => temporal.stop());
    await waitFor(`the Temporal frontend (log: ${path.join(logDir, 'temporal.log')})`, () => listening(addresses.temporalPort), 120_000);

    o.log('registering the namespace and the search attributes...');
    await runSetupJob('temporal-namespace', namespaceLocalEnv(cli));

    // temporal-ui
    let uiUrl: string | undefined;
    if (uiInstall) {
      const uiPort = o.uiPort ?? (await freePort());
      uiUrl = `http://127.0.0.1:${uiPort}`;
      const ui = startClusterService({
        name: 'temporal-ui',
        command: uiInstall.server,
        args: ['--root', uiInstall.root, '--config', 'config', '--env', 'docker', 'start'],
        env: serviceEnv(compose, 'temporal-ui', addresses, { local: uiLocalEnv(uiPort) }),
        cwd: ROOT,
        logDir,
        log: o.log,
        onGiveUp,
      });
      stops.push(() => ui.stop());
    }

    // api, worker-http, worker-browser
    const apiPorts = o.apiPorts ?? [await freePort(), await freePort()];
    const publicUrl = `http://127.0.0.1:${apiPorts[0]}`;
    for (const name of Object.keys(REPLICAS) as OurService[]) {
      const [command, args] = localCommand(compose, name, node);
      for (let i = 0; i < REPLICAS[name]; i++) {
        const metricsPort = await freePort();
        const isApi = name === 'api';
        const local = memberLocalEnv({ ...(isApi && { port: apiPorts[i]! }), metricsPort, sdkMetricsPort: await freePort(), publicUrl, dataDir, chromium });
        const env = serviceEnv(compose, name, addresses, { ourImage: true, local, ...(o.env && { extra: o.env }) });
        const service = startClusterService({ name: `${name}-${i + 1}`, command, args, env, cwd: ROOT, logDir, niced: !isApi, log: o.log, onGiveUp });
        members[name].push(Object.assign(service, { metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`, ...(isApi && { url: `http://127.0.0.1:${apiPorts[i]}` }) }));
      }
    }
    o.log(`waiting for ${REPLICAS.api} API replicas, ${REPLICAS['worker-http']} HTTP workers and ${REPLICAS['worker-browser']} browser worker on Node ${node}...`);
    const all = Object.values(members).flat();
    await Promise.all(
      all.map((m) => waitFor(`${m.name}'s health check (log: ${path.join(logDir, `${m.name}.log`)})`, () => answers(m.url ? `${m.url}/healthz` : m.metricsUrl), 240_000)),
    );
    // Every queue has its workers (the API's readiness says so).
    await waitFor('the API\'s /readyz', () => answers(`${publicUrl}/readyz`), 120_000);
    if (uiUrl) await waitFor(`the Temporal UI (log: ${path.join(logDir, 'temporal-ui.log')})`, () => answers(uiUrl!), 60_000);

    const apiEnv = serviceEnv(compose, 'api', addresses, { ourImage: true });
    return {
      apiUrls: members.api.map((m) => m.url!),
      apis: members.api,
      httpWorkers: members['worker-http'],
      browserWorkers: members['worker-browser'],
      temporalAddress: `127.0.0.1:${addresses.temporalPort}`,
      temporal,
      ...(uiUrl && { uiUrl }),
      postgres: pg,
      databaseUrl: apiEnv.DATABASE_URL!,
      dataDir,
      logDir,
      node,
      chromiumPath: chromium,
      queuePrefix: apiEnv.TEMPORAL_TASK_QUEUE_PREFIX || 'wcs',
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
