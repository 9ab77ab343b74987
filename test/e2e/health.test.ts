import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from '../helpers/api';
import { inProcessConfig, startInProcessApi, type Running } from '../helpers/in-process';

describe('health endpoints', () => {
  it('/healthz answers 200 without a key', async () => {
    const { status, body } = await api('/healthz', { key: null });
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok' });
  });

  it('/readyz answers 200 with each check when Postgres, Temporal and every queue are served', async () => {
    const prefix = inject('queuePrefix');
    const { status, body } = await api('/readyz', { key: null });
    expect(status).toBe(200);
    expect(body.status).toBe('ready');
    expect(Object.keys(body.checks).sort()).toEqual(['postgres', 'temporal', `${prefix}-browser:activities`, `${prefix}-http:activities`, `${prefix}-http:workflows`, `${prefix}-scrape:activities`, `${prefix}-scrape:api-worker`, `${prefix}-scrape:workflows`].sort());
    for (const [name, check] of Object.entries(body.checks)) expect({ name, ok: (check as { ok: boolean }).ok }).toEqual({ name, ok: true });
    expect(body.checks[`${prefix}-http:workflows`].detail).toMatch(/^\d+ poller\(s\)$/);
  });
});

describe('/readyz when no worker polls the task queues', () => {
  const prefix = `wcs-unserved-${process.pid}`;
  let unserved: Running & { url: string };

  beforeAll(async () => {
    unserved = await startInProcessApi(inProcessConfig({ TEMPORAL_TASK_QUEUE_PREFIX: prefix }));
  });
  afterAll(() => unserved?.close());

  it('answers 503 in the error shape, naming each unserved queue', async () => {
    const { status, body } = await api('/readyz', { key: null, baseUrl: unserved.url });
    expect(status).toBe(503);
    expect(body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE', error: expect.stringMatching(/^Not ready: /) });
    expect(body.details).toEqual(
      expect.arrayContaining([
        { path: `${prefix}-http:workflows`, message: `no worker is polling ${prefix}-http` },
        { path: `${prefix}-http:activities`, message: `no worker is polling ${prefix}-http` },
        { path: `${prefix}-browser:activities`, message: `no worker is polling ${prefix}-browser` },
        { path: `${prefix}-scrape:workflows`, message: `no worker is polling ${prefix}-scrape` },
        { path: `${prefix}-scrape:activities`, message: `no worker is polling ${prefix}-scrape` },
      ]),
    );
    expect(body.details).toHaveLength(5);
  });

  it('still answers /healthz, which checks only the process', async () => {
    const { status } = await api('/healthz', { key: null, baseUrl: unserved.url });
    expect(status).toBe(200);
  });
});
