import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configVariables, loadConfig } from '../../src/config/env';
import { ROOT } from '../../src/config/paths';

const DATABASE_URL = 'postgres://wcs@127.0.0.1:5432/wcs';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  return [];
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ DATABASE_URL });
    expect(config).toMatchObject({
      PORT: 3002,
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://127.0.0.1:3002',
      DATA_DIR: path.resolve('./data'),
      DATABASE_URL,
      DATABASE_POOL_SIZE: 10,
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE_PREFIX: 'wcs',
      WORKER_QUEUES: ['http', 'browser'],
      BROWSER_MAX_PAGES: 4,
      BROWSER_RESTART_AFTER_PAGES: 500,
      MAX_PAGE_BYTES: 10 * 1024 * 1024,
      MAX_BODY_BYTES: 1024 * 1024,
      RATE_LIMIT_PER_MINUTE: 600,
      JOB_TTL_HOURS: 24,
      LOG_LEVEL: 'info',
      DOCS_ENABLED: true,
      taskQueues: { http: 'wcs-http', browser: 'wcs-browser' },
    });
    expect(config.CHROMIUM_PATH).toBeUndefined();
    expect(config.ALLOW_PRIVATE_HOSTS.entries).toEqual([]);
    expect(config.USER_AGENT).toMatch(/^Mozilla\/5\.0 \(compatible; web-context-service/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL, PORT: '', LOG_LEVEL: '', WORKER_QUEUES: '' })).toMatchObject({ PORT: 3002, LOG_LEVEL: 'info', WORKER_QUEUES: ['http', 'browser'] });
  });

  it('reads what is set', () => {
    const config = loadConfig({
      DATABASE_URL,
      PORT: '8080',
      HOST: '0.0.0.0',
      TEMPORAL_TASK_QUEUE_PREFIX: 'prod',
      WORKER_QUEUES: 'browser',
      ALLOW_PRIVATE_HOSTS: '127.0.0.1:4599, fixtures.test',
      DOCS_ENABLED: 'no',
      PUBLIC_URL: 'https://scrape.example.com/',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      PUBLIC_URL: 'https://scrape.example.com',
      WORKER_QUEUES: ['browser'],
      DOCS_ENABLED: false,
      taskQueues: { http: 'prod-http', browser: 'prod-browser' },
    });
    expect(config.ALLOW_PRIVATE_HOSTS.entries).toEqual([
      { host: '127.0.0.1', port: 4599 },
      { host: 'fixtures.test', port: null },
    ]);
    // Bound to every interface, reached on loopback by default.
    expect(loadConfig({ DATABASE_URL, HOST: '0.0.0.0' }).PUBLIC_URL).toBe('http://127.0.0.1:3002');
  });

  it('reports a missing DATABASE_URL', () => {
    expect(problemsOf({})).toEqual([expect.stringMatching(/^DATABASE_URL: .*\(not set\)$/)]);
  });

  it('reports every bad variable at once, one message each, naming the variable and its value', () => {
    const problems = problemsOf({
      DATABASE_URL: 'mysql://db/wcs',
      PORT: 'eighty',
      TEMPORAL_ADDRESS: 'temporal',
      WORKER_QUEUES: 'http,gpu',
      ALLOW_PRIVATE_HOSTS: 'host:port',
      LOG_LEVEL: 'loud',
      DOCS_ENABLED: 'maybe',
      BROWSER_MAX_PAGES: '0',
      PUBLIC_URL: 'not a url',
    });
    const byVariable = new Map(problems.map((p) => [p.slice(0, p.indexOf(':')), p]));
    expect([...byVariable.keys()].sort()).toEqual(
      ['ALLOW_PRIVATE_HOSTS', 'BROWSER_MAX_PAGES', 'DATABASE_URL', 'DOCS_ENABLED', 'LOG_LEVEL', 'PORT', 'PUBLIC_URL', 'TEMPORAL_ADDRESS', 'WORKER_QUEUES'].sort(),
    );
    expect(problems).toHaveLength(byVariable.size);
    expect(byVariable.get('DATABASE_URL')).toBe('DATABASE_URL: must start with postgres:// or postgresql:// (got "mysql://db/wcs")');
    expect(byVariable.get('TEMPORAL_ADDRESS')).toBe('TEMPORAL_ADDRESS: must be host:port (got "temporal")');
    expect(byVariable.get('ALLOW_PRIVATE_HOSTS')).toContain('"host:port" is not a host or host:port entry');
    expect(byVariable.get('PORT')).toContain('(got "eighty")');
  });

  it('bounds the scrape queue at 1000 by default, and takes 0 for no bound', () => {
    expect(loadConfig({ DATABASE_URL }).MAX_QUEUED_SCRAPES).toBe(1000);
    expect(loadConfig({ DATABASE_URL, MAX_QUEUED_SCRAPES: '0' }).MAX_QUEUED_SCRAPES).toBe(0);
  });

  it('bounds an agent run’s model loop: 100000 tokens and 600 s by default, at most 1500 s (the run times out at 30 min)', () => {
    expect(loadConfig({ DATABASE_URL })).toMatchObject({ AGENT_LLM_MAX_TOKENS: 100_000, AGENT_LLM_MAX_SECONDS: 600 });
    expect(problemsOf({ DATABASE_URL, AGENT_LLM_MAX_SECONDS: '3600', AGENT_LLM_MAX_TOKENS: '10' })).toEqual([
      'AGENT_LLM_MAX_TOKENS: Too small: expected number to be >=1000 (got "10")',
      'AGENT_LLM_MAX_SECONDS: must be at most 1500 (25 minutes; an agent run times out at 30) (got "3600")',
    ]);
  });

  it('refuses a port out of range', () => {
    expect(problemsOf({ DATABASE_URL, PORT: '70000' })).toEqual(['PORT: must be a TCP port (1-65535) (got "70000")']);
  });
});

describe('the configuration table of docs/operations.md', () => {
  it('lists exactly the variables the service reads', () => {
    const operations = readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
    const section = operations.split(/^## /m).find((s) => s.startsWith('Configuration\n'));
    expect(section).toBeDefined();
    const documented = [...section!.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect([...documented].sort()).toEqual([...configVariables].sort());
  });
});
