import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../errors';
import { classifyNetworkError } from './classify-network-error';
import { defaultPort, type PublicUrlGate } from './public-url-gate';

/** Carries our error code on a proxy answer, so a render can tell it from the site's own. */
export const PROXY_ERROR_HEADER = 'x-wcs-proxy-error';

const HOP_BY_HOP = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function errorCode(err: unknown, target: string): ErrorCode {
  return classifyNetworkError(err, target, false).code;
}

/**
 * A forward proxy for Chromium that opens every upstream socket through the public-URL gate.
 * Plain HTTP (absolute-form requests), CONNECT tunnels (HTTPS, WebSockets) and upgrades all
 * take the same path, so redirects, subresources, fetch/XHR, WebSockets and service workers are
 * covered by where the socket opens, not by which URL the page asked for.
 */
export class FilteringProxy {
  /** Why connections to `host:port` failed: URL_BLOCKED for the gate's refusals. */
  readonly failures = new Map<string, ErrorCode>();
  private readonly sockets = new Set<Duplex>();

  private constructor(
    private readonly gate: PublicUrlGate,
    private readonly server: http.Server,
  ) {
    server.on('request', (req, res) => this.onRequest(req, res));
    server.on('connect', (req, socket, head) => this.onTunnel(req, socket, head));
    server.on('upgrade', (req, socket, head) => this.onUpgrade(req, socket, head));
    server.on('connection', (socket) => this.track(socket));
  }

  static async start(gate: PublicUrlGate): Promise<FilteringProxy> {
    const proxy = new FilteringProxy(gate, http.createServer({ keepAlive: true }));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    const { port } = this.server.address() as net.AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** The error code of a failed connection to this URL's host, if one failed. */
  failureFor(url: string): ErrorCode | undefined {
    try {
      const u = new URL(url);
      return this.failures.get(`${u.hostname}:${Number(u.port) || defaultPort(u.protocol)}`);
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  /** Opens a gated socket to host:port; IP literals are checked here, names in the lookup. */
  private open(hostname: string, port: number, onConnect: (upstream: net.Socket) => void, onError: (code: ErrorCode) => void): void {
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    const fail = (err: unknown) => {
      const code = errorCode(err, `${hostname}:${port}`);
      this.failures.set(`${hostname}:${port}`, code);
      onError(code);
    };
    try {
      this.gate.assertLiteral(host, port);
    } catch (err) {
      return fail(err);
    }
    const upstream = net.connect({ host, port, lookup: this.gate.lookupFor(port) });
    this.track(upstream);
    upstream.once('connect', () => onConnect(upstream));
    upstream.once('error', fail);
  }

  private refuse(socket: Duplex, code: ErrorCode): void {
    const status = code === 'URL_BLOCKED' ? '403 Forbidden' : '502 Bad Gateway';
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\n${PROXY_ERROR_HEADER}: ${code}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
  }

  private onTunnel(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
    if (!m) return this.refuse(socket, 'BAD_REQUEST');
    this.open(
      m[1]!,
      Number(m[2]),
      (upstream) => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) upstream.write(head);
        upstream.pipe(socket).pipe(upstream);
      },
      (code) => this.refuse(socket, code),
    );
  }

  private onUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      return this.refuse(socket, 'BAD_REQUEST');
    }
    const port = Number(target.port) || defaultPort(target.protocol);
    this.open(
      target.hostname,
      port,
      (upstream) => {
        const headers = Object.entries(req.headers)
          .filter(([name]) => !name.startsWith('proxy-'))
          .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : value}`);
        upstream.write(`${req.method} ${target.pathname}${target.search} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
        if (head.length) upstream.write(head);
        upstream.pipe(socket).pipe(upstream);
      },
      (code) => this.refuse(socket, code),
    );
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('only http is proxied without CONNECT');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const port = Number(target.port) || 80;
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
    const fail = (code: ErrorCode) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(code === 'URL_BLOCKED' ? 403 : 502, { [PROXY_ERROR_HEADER]: code }).end();
    };
    this.open(
      target.hostname,
      port,
      (upstream) => {
        const forward = http.request(
          { createConnection: () => upstream, method: req.method, path: `${target.pathname}${target.search}`, headers: { ...headers, host: target.host } },
          (answer) => {
            const kept: string[] = [];
            for (let i = 0; i < answer.rawHeaders.length; i += 2) {
              if (!HOP_BY_HOP.has(answer.rawHeaders[i]!.toLowerCase())) kept.push(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
            }
            res.writeHead(answer.statusCode ?? 502, kept);
            answer.pipe(res);
          },
        );
        forward.on('error', () => fail('SCRAPE_CONNECTION_ERROR'));
        req.pipe(forward);
      },
      fail,
    );
  }
}
