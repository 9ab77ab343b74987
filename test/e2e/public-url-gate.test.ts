import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, fixture } from '../helpers/api';
import { startPrivateServer, type PrivateServer } from '../helpers/private-server';

/**
 * The public-URL gate end to end: every refused URL answers 403 URL_BLOCKED, and a private
 * server (a TCP listener on 127.0.0.1 that is not allowlisted) never sees a connection, whether
 * the URL is refused by the API, by the worker on a redirect hop, or by Chromium's proxy.
 */
let privateServer: PrivateServer;

beforeAll(async () => {
  privateServer = await startPrivateServer();
});

afterAll(async () => {
  await privateServer.close();
});

async function expectBlocked(body: Record<string, unknown>): Promise<void> {
  const before = privateServer.connections();
  const { status, body: answer } = await api('/v1/scrape', { body });
  expect({ url: body.url, status, code: answer.code }).toEqual({ url: body.url, status: 403, code: 'URL_BLOCKED' });
  expect(answer.success).toBe(false);
  expect(privateServer.connections()).toBe(before);
}

it('the private server counts a direct connection (so zero means none came)', async () => {
  const before = privateServer.connections();
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(privateServer.port, '127.0.0.1', () => {
      socket.destroy();
      resolve();
    });
    socket.on('error', reject);
  });
  await expect.poll(() => privateServer.connections()).toBe(before + 1);
});

describe('the gate refuses private and non-http URLs with 403 URL_BLOCKED', () => {
  const port = () => privateServer.port;
  const cases: [string, () => string][] = [
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['decimal IPv4', () => `http://2130706433:${port()}/`],
    ['IPv4-mapped IPv6', () => `http://[::ffff:127.0.0.1]:${port()}/`],
    ['file scheme', () => 'file:///etc/passwd'],
    ['hex IPv4', () => `http://0x7f.1:${port()}/`],
    ['octal IPv4', () => `http://0177.0.0.1:${port()}/`],
    ['IPv6 unspecified', () => `http://[::]:${port()}/`],
    ['IPv4 unspecified', () => `http://0.0.0.0:${port()}/`],
    ['loopback IPv6', () => `http://[::1]:${port()}/`],
    ['a name that resolves to loopback, on a port not allowlisted', () => `http://localhost:${port()}/`],
    ['loopback on a port not allowlisted', () => `http://127.0.0.1:${port()}/`],
    ['private range', () => 'http://10.0.0.1/'],
    ['CGNAT', () => 'http://100.64.0.1/'],
    ['NAT64 of loopback', () => `http://[64:ff9b::7f00:1]:${port()}/`],
  ];
  for (const [name, url] of cases) {
    it(`${name}`, async () => {
      await expectBlocked({ url: url() });
    });
  }

  it('refuses the same URLs when the browser is asked for', async () => {
    await expectBlocked({ url: `http://2130706433:${privateServer.port}/`, engine: 'browser' });
    await expectBlocked({ url: `http://localhost:${privateServer.port}/`, engine: 'browser' });
  });
});

describe('a redirect to a private address is refused at the hop', () => {
  const targets = () => [`http://127.0.0.1:${privateServer.port}/`, `http://localhost:${privateServer.port}/`, `http://[::ffff:7f00:1]:${privateServer.port}/`];
  for (const engine of ['http', 'browser'] as const) {
    it(`with engine ${engine}`, async () => {
      for (const target of targets()) {
        await expectBlocked({ url: fixture(`/redirect-to?target=${encodeURIComponent(target)}`), engine });
      }
      await expectBlocked({ url: fixture(`/redirect-to?target=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`), engine });
    });
  }

});

describe('a rendered page cannot reach a private address', () => {
  it('through img, iframe, fetch, WebSocket, sendBeacon or a service worker', async () => {
    const target = `http://127.0.0.1:${privateServer.port}`;
    const before = privateServer.connections();
    const { status, body } = await api('/v1/scrape', {
      body: { url: fixture(`/private-resources?target=${encodeURIComponent(target)}`), engine: 'browser', waitFor: 2000, onlyMainContent: false },
    });
    expect(status).toBe(200);
    expect(body.data.metadata).toMatchObject({ renderer: 'browser', statusCode: 200 });
    // Each channel reports that it tried; none of them got through.
    const markdown: string = body.data.markdown;
    expect(markdown).toMatch(/img: failed/);
    expect(markdown).toMatch(/fetch: failed/);
    expect(markdown).toMatch(/websocket: failed/);
    expect(markdown).toMatch(/beacon: (queued|refused)/);
    expect(markdown).toMatch(/service worker: fetch failed/);
    expect(privateServer.connections()).toBe(before);
  });
});
