import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configVariables, loadConfig } from '../../src/config/env';
import {
  memberLocalEnv,
  namespaceLocalEnv,
  PLACEMENT_ONLY,
  schemaLocalEnv,
  serviceEnv,
  temporalLocalEnv,
  uiLocalEnv,
  type TemporalPorts,
} from '../../src/dev/cluster/cluster-env';
import { imageEnv } from '../../src/dev/cluster/dockerfile-env';
import { REPLICAS } from '../../src/dev/cluster/cluster';
import { hostPath, interpolate, readComposeFile } from '../../src/dev/compose-file';
import { ROOT } from '../../src/config/paths';
import { PRODUCTION_NODE_VERSION } from '../../src/dev/production-node';
import { TEMPORAL_SERVER_VERSION, TEMPORAL_UI_VERSION } from '../../src/dev/temporal-server-install';
import { searchAttributeFlags } from '../../src/temporal/search-attributes';
import { WORKER_NODE_FLAGS, WORKER_PROCESS_ENV } from '../../src/worker/process-settings';

/**
 * docker-compose.yml and the Dockerfile cannot be run here (no Docker engine); `npm run cluster`
 * runs their topology from their variables and commands (test/cluster). Keep them honest.
 */
const compose = readComposeFile({});
const ours = Object.keys(REPLICAS);
const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
/** Read by the service, set by no deployment: tests let their local fixture servers through with it. */
const TEST_ONLY = ['ALLOW_PRIVATE_HOSTS'];

describe('docker-compose.yml', () => {
  it('sets only variables the service reads on the api and worker services', () => {
    for (const name of ours) {
      const unknown = Object.keys(compose.services[name]!.environment ?? {}).filter((v) => !configVariables.includes(v) && !(name.startsWith('worker') && v in WORKER_PROCESS_ENV));
      expect({ name, unknown }).toEqual({ name, unknown: [] });
    }
  });

  it('lists every variable the services read (src/config/env.ts), with the image\'s ENV', () => {
    const listed = new Set([...Object.keys(imageEnv()), ...ours.flatMap((name) => Object.keys(compose.services[name]!.environment ?? {}))]);
    expect(configVariables.filter((v) => !listed.has(v) && !TEST_ONLY.includes(v))).toEqual([]);
  });

  it('gives each service a configuration the service accepts, defaults filled in where left empty', () => {
    for (const name of ours) {
      const env = { ...imageEnv(), ...compose.services[name]!.environment };
      expect(() => loadConfig(env), name).not.toThrow();
    }
    expect(loadConfig({ ...imageEnv(), ...compose.services['worker-http']!.environment }).WORKER_QUEUES).toEqual(['http']);
    expect(loadConfig({ ...imageEnv(), ...compose.services['worker-browser']!.environment }).WORKER_QUEUES).toEqual(['browser']);
  });

  it('interpolates as compose does', () => {
    expect(interpolate('${A:-x} ${B-y} ${C} $$D', { A: '', B: '', C: 'c' })).toBe('x  c $D');
    expect(interpolate('postgres://wcs:${POSTGRES_PASSWORD:-wcs}@postgres:5432/wcs', { POSTGRES_PASSWORD: 's3cret' })).toBe('postgres://wcs:s3cret@postgres:5432/wcs');
  });

  it('runs the compiled entry points on the image\'s Node, workers split by WORKER_QUEUES', () => {
    expect(compose.services.api!.command).toEqual(['node', 'dist/src/api/main.js']);
    for (const [name, queues] of [['worker-http', 'http'], ['worker-browser', 'browser']]) {
      expect(compose.services[name!]!.command).toEqual(['node', ...WORKER_NODE_FLAGS, 'dist/src/worker/main.js']);
      expect(compose.services[name!]!.environment!.WORKER_QUEUES).toBe(queues);
      expect(compose.services[name!]!.environment).toMatchObject(WORKER_PROCESS_ENV);
    }
    // dist/src/<role>/main.js is compiled from src/<role>/main.ts.
    for (const name of ours) expect(existsSync(path.join(ROOT, compose.services[name]!.command!.at(-1)!.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
  });

  it('starts each service only once what it needs is healthy or done, and checks the health of every long-running one', () => {
    for (const name of ours) {
      expect(compose.services[name]!.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        'temporal-namespace': { condition: 'service_completed_successfully' },
      });
    }
    expect(compose.services.temporal!.depends_on).toEqual({ 'temporal-schema': { condition: 'service_completed_successfully' } });
    for (const name of ['postgres', 'temporal', ...ours]) expect(compose.services[name]!.healthcheck, name).toBeDefined();
    // The workers' check asks their metrics listener, on the port compose gives them.
    for (const name of ['worker-http', 'worker-browser']) {
      expect(compose.services[name]!.healthcheck!.test.join(' ')).toContain(`127.0.0.1:${compose.services[name]!.environment!.WORKER_METRICS_PORT}/metrics`);
    }
  });

  it('publishes the API but not its metrics: they are on a port of their own, on the compose network', () => {
    const api = compose.services.api!;
    expect(api.ports).toEqual(['3002:3002']);
    expect(api.environment!.API_METRICS_PORT).not.toBe(api.environment!.PORT);
  });

  it('shares one data volume between the API and the workers (file-system screenshots)', () => {
    for (const name of ours) expect(compose.services[name]!.volumes).toContain('wcs-data:/app/data');
    expect(Object.keys(compose.volumes)).toContain('wcs-data');
    expect(imageEnv().DATA_DIR).toBe('/app/data');
  });

  it('registers exactly the search attributes the workflows use', () => {
    const script = readFileSync(path.join(ROOT, 'deploy', 'temporal', 'setup-namespace.sh'), 'utf8');
    const listed = /for attribute in ([^;]+);/.exec(script)![1]!.trim().split(/\s+/);
    expect(listed.sort()).toEqual(searchAttributeFlags().sort());
  });

  it('deploys the Temporal server and UI versions the local cluster builds and tests, with task-queue fairness on', () => {
    expect(compose.services.temporal!.image).toBe(`temporalio/server:${TEMPORAL_SERVER_VERSION}`);
    expect(compose.services['temporal-schema']!.image).toBe(`temporalio/admin-tools:${TEMPORAL_SERVER_VERSION.split('.').slice(0, 2).join('.')}`);
    expect(compose.services['temporal-ui']!.image).toBe(`temporalio/ui:${TEMPORAL_UI_VERSION}`);
    const temporal = compose.services.temporal!;
    const dynamic = parse(readFileSync(hostPath(temporal, temporal.environment!.DYNAMIC_CONFIG_FILE_PATH!), 'utf8')) as Record<string, { value: unknown }[]>;
    expect(dynamic['matching.enableFairness']).toEqual([{ value: true, constraints: {} }]);
  });
});

describe('the local cluster (npm run cluster)', () => {
  const addresses = { postgresPort: 15432, temporalPort: 17233 };
  const ports = Object.fromEntries(PLACEMENT_ONLY.filter((p) => p !== 'FRONTEND_GRPC_PORT').map((p, i) => [p, 20_000 + i])) as TemporalPorts;
  const member = { metricsPort: 19464, sdkMetricsPort: 19465, publicUrl: 'http://127.0.0.1:13002', dataDir: '/tmp/data', chromium: '/usr/bin/chromium' };

  it('sets on each service only variables docker-compose.yml gives it (or that place a Temporal server\'s ports)', () => {
    const local: Record<string, Record<string, string>> = {
      'temporal-schema': schemaLocalEnv(15432, '/cache/temporal-sql-tool'),
      temporal: temporalLocalEnv(addresses, ports, '/repo/deploy/temporal/dynamicconfig.yaml'),
      'temporal-namespace': namespaceLocalEnv('/cache/temporal'),
      'temporal-ui': uiLocalEnv(18080),
      api: memberLocalEnv({ ...member, port: 13002 }),
      'worker-http': memberLocalEnv(member),
      'worker-browser': memberLocalEnv(member),
    };
    for (const [name, values] of Object.entries(local)) {
      expect(() => serviceEnv(compose, name, addresses, { local: values, ourImage: ours.includes(name) }), name).not.toThrow();
    }
    expect(() => serviceEnv(compose, 'api', addresses, { local: { NOT_IN_COMPOSE: '1' } })).toThrow(/NOT_IN_COMPOSE/);
  });

  it('reaches Postgres and Temporal where they listen on this machine, with the credentials compose gives', () => {
    const api = serviceEnv(compose, 'api', addresses, { ourImage: true, local: memberLocalEnv({ ...member, port: 13002 }) });
    expect(api.DATABASE_URL).toBe('postgres://wcs:wcs@127.0.0.1:15432/wcs');
    expect(api.TEMPORAL_ADDRESS).toBe('127.0.0.1:17233');
    expect(api).toMatchObject({ NODE_ENV: 'production', PORT: '13002', DATA_DIR: '/tmp/data', EAGER_SCRAPES: 'true' });
    expect(serviceEnv(compose, 'temporal-ui', addresses).TEMPORAL_ADDRESS).toBe('127.0.0.1:17233');
  });
});

describe('Dockerfile', () => {
  it('builds the compiled service and the workflow bundles, and runs them on the Node LTS package.json declares', () => {
    const major = PRODUCTION_NODE_VERSION.split('.')[0];
    expect(dockerfile.match(/^FROM node:(\d+)-/gm)).toEqual([`FROM node:${major}-`, `FROM node:${major}-`]);
    const engines = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toMatch(/^>=2[24]\./);
    expect(Number(major)).toBeGreaterThanOrEqual(Number(/^>=(\d+)/.exec(engines)![1]));
    expect(dockerfile).toContain('RUN node --import tsx src/dev/build.ts');
    expect(dockerfile).toContain('COPY --from=build /app/dist ./dist');
    expect(dockerfile).toContain('CMD ["node", "dist/src/api/main.js"]');
    for (const dir of ['src', 'workflows', 'activities', 'drizzle']) expect(dockerfile).toContain(`COPY ${dir} ./${dir}`);
  });

  it('installs Chromium where CHROMIUM_PATH points', () => {
    expect(dockerfile).toMatch(/apt-get install[^\n]* chromium /);
    expect(imageEnv().CHROMIUM_PATH).toBe('/usr/bin/chromium');
  });
});
