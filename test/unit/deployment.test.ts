import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configVariables } from '../../src/config/env';
import { ROOT } from '../../src/config/paths';
import { searchAttributeFlags } from '../../src/temporal/search-attributes';
import { WORKER_NODE_FLAGS, WORKER_PROCESS_ENV } from '../../src/worker/process-settings';

/** docker-compose.yml and the Dockerfile cannot be run here (no Docker engine); keep them honest. */
const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, { command?: string[]; environment?: Record<string, unknown>; depends_on?: Record<string, { condition: string }>; healthcheck?: unknown; volumes?: string[] }>;
  volumes: Record<string, unknown>;
};
const ours = ['api', 'worker-http', 'worker-browser'];

describe('docker-compose.yml', () => {
  it('sets only variables the service reads on the api and worker services', () => {
    for (const name of ours) {
      const unknown = Object.keys(compose.services[name]!.environment ?? {}).filter((v) => !configVariables.includes(v) && !(name.startsWith('worker') && v in WORKER_PROCESS_ENV));
      expect({ name, unknown }).toEqual({ name, unknown: [] });
    }
  });

  it('runs the real entry points, workers split by WORKER_QUEUES', () => {
    expect(compose.services.api!.command).toEqual(['node', '--import', 'tsx', 'src/api/main.ts']);
    for (const [name, queues] of [['worker-http', 'http'], ['worker-browser', 'browser']]) {
      expect(compose.services[name!]!.command).toEqual(['node', ...WORKER_NODE_FLAGS, '--import', 'tsx', 'src/worker/main.ts']);
      expect(compose.services[name!]!.environment!.WORKER_QUEUES).toBe(queues);
      expect(compose.services[name!]!.environment).toMatchObject(WORKER_PROCESS_ENV);
    }
    for (const name of ours) expect(existsSync(path.join(ROOT, compose.services[name]!.command!.at(-1)!))).toBe(true);
  });

  it('starts each service only once what it needs is healthy or done', () => {
    for (const name of ours) {
      expect(compose.services[name]!.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        'temporal-namespace': { condition: 'service_completed_successfully' },
      });
    }
    expect(compose.services.temporal!.depends_on).toEqual({ 'temporal-schema': { condition: 'service_completed_successfully' } });
    for (const name of ['postgres', 'temporal', 'api']) expect(compose.services[name]!.healthcheck).toBeDefined();
  });

  it('shares one data volume between the API and the workers (file-system screenshots)', () => {
    for (const name of ours) expect(compose.services[name]!.volumes).toContain('wcs-data:/app/data');
    expect(Object.keys(compose.volumes)).toContain('wcs-data');
    expect(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')).toContain('DATA_DIR=/app/data');
  });

  it('registers exactly the search attributes the workflows use', () => {
    const script = readFileSync(path.join(ROOT, 'deploy', 'temporal', 'setup-namespace.sh'), 'utf8');
    const listed = /for attribute in ([^;]+);/.exec(script)![1]!.trim().split(/\s+/);
    expect(listed.sort()).toEqual(searchAttributeFlags().sort());
  });
});

describe('Dockerfile', () => {
  it('installs Chromium where CHROMIUM_PATH points and starts the API entry point', () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/apt-get install[^\n]* chromium /);
    expect(dockerfile).toContain('CHROMIUM_PATH=/usr/bin/chromium');
    expect(dockerfile).toContain('CMD ["node", "--import", "tsx", "src/api/main.ts"]');
    for (const dir of ['src', 'workflows', 'activities', 'drizzle']) expect(dockerfile).toContain(`COPY ${dir} ./${dir}`);
  });
});
