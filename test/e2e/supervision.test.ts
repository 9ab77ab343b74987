import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startProcess, waitFor, type ManagedProcess } from '../../src/dev/child-process';
import { ROOT } from '../../src/config/paths';
import { api, fixture } from '../helpers/api';
import { freePort } from '../helpers/free-port';
import { processTree } from '../helpers/processes';

/** `npm start` itself (src/dev/start.ts), as a process, against the run's Temporal and database. */
let start: ManagedProcess;
let output = '';
let apiUrl: string;
let dataDir: string;

const commandLine = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
};
const serviceProcess = (role: 'api' | 'worker') => processTree(start.child.pid!).find((p) => commandLine(p.pid).includes(path.join('src', role, 'main.ts')));

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'wcs-supervision-'));
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  start = startProcess('start', process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'dev', 'start.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: inject('databaseUrl'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      CHROMIUM_PATH: inject('chromiumPath'),
      ALLOW_PRIVATE_HOSTS: new URL(inject('fixtureUrl')).host,
      TEMPORAL_TASK_QUEUE_PREFIX: 'wcs-supervision',
      DATA_DIR: dataDir,
      WORKER_METRICS_PORT: String(await freePort()),
      TEMPORAL_METRICS_PORT: String(await freePort()),
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
    },
  });
  for (const stream of [start.child.stdout!, start.child.stderr!]) stream.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await waitFor('npm start', async () => output.includes('web-context-service is running'), 150_000, start.exited);
});
afterAll(async () => {
  await start?.stop(30_000);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start supervises the API and the worker', () => {
  it('restarts a worker killed with SIGKILL, says so, and the API answers throughout', async () => {
    const key = /API key\s+(\S+)/.exec(output)![1]!;
    const worker = serviceProcess('worker')!;
    const apiProcess = serviceProcess('api')!;
    expect(worker).toBeDefined();
    expect(apiProcess).toBeDefined();

    // A client polling the API while the worker dies and comes back.
    const answers: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        answers.push(await fetch(`${apiUrl}/healthz`).then((r) => r.status, () => 0));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    process.kill(worker.pid, 'SIGKILL');
    await waitFor('the restart message', async () => /restarted the worker process \(pid \d+\)/.test(output), 30_000, start.exited);
    expect(output).toMatch(/\[start\] the worker process exited \(signal SIGKILL\); restarting it in \d+\.\d s \(restart 1\); the rest keeps running/);
    const restarted = serviceProcess('worker');
    expect(restarted?.pid).toBeDefined();
    expect(restarted!.pid).not.toBe(worker.pid);

    // The new worker polls again: the API is ready and a scrape goes through.
    await waitFor('/readyz', async () => (await fetch(`${apiUrl}/readyz`)).status === 200, 120_000, start.exited);
    const scraped = await api('/v1/scrape', { baseUrl: apiUrl, key, body: { url: fixture('/article') } });
    expect(scraped.status).toBe(200);
    expect(scraped.body.data.markdown).toContain('A Short History of Lighthouses');

    polling = false;
    await poller;
    expect(answers.length).toBeGreaterThan(5);
    expect(answers.every((status) => status === 200)).toBe(true);
    // The API process is the one from before: only the worker was restarted.
    expect(serviceProcess('api')?.pid).toBe(apiProcess.pid);
    expect(start.child.exitCode).toBeNull();
  });
});
