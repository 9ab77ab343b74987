import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { authenticate } from '../../accounts/api-keys';
import { AppError } from '../../errors';
import { findJob } from '../../jobs/job-store';
import type { ApiDeps } from '../api-deps';
import { dependencyOutage } from '../../startup/dependency-outage';
import { streamJob } from './watch-stream';

/** How the status routes' documentation describes the WebSocket at the same path. */
export const WATCH_NOTE =
  'The same path also takes a WebSocket upgrade (the SDK\'s `watcher`): send the key as `Authorization: Bearer` or as the subprotocol; it streams `catchup`, one `document` per page, and `done` (completed), `error` (failed) or a `status` snapshot (cancelled), then closes.';

/** How often an open watch is pinged; one without a pong by the next ping is dropped. */
const HEARTBEAT_MS = 30_000;

/** The two paths the SDK's Watcher opens, by job kind. */
const WATCH_PATH = /^\/v2\/(?:crawl|batch\/scrape)\/([^/?]+)\/?(?:\?.*)?$/;

/**
 * The caller's API key: `Authorization: Bearer <key>`, or the first WebSocket subprotocol, which
 * is where the Firecrawl SDK (and browsers, which cannot set headers) put it.
 */
function keyOf(req: IncomingMessage): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (bearer) return bearer[1];
  return req.headers['sec-websocket-protocol']?.split(',')[0]?.trim() || undefined;
}

/** Answers an upgrade request with an HTTP error in the API's error shape, and hangs up. */
function refuse(socket: Duplex, err: AppError): void {
  const body = JSON.stringify({ success: false, code: err.code, error: err.message });
  const retryAfter = err.retryAfterSeconds !== undefined ? `Retry-After: ${err.retryAfterSeconds}\r\n` : '';
  socket.end(`HTTP/1.1 ${err.status} ${STATUS_CODES[err.status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${retryAfter}Connection: close\r\n\r\n${body}`);
}

/**
 * Serves the crawl and batch status WebSocket at /v2/crawl/:id and /v2/batch/scrape/:id on the
 * API's HTTP server, behind the same keys as every route. `close` ends every open watch.
 */
export function attachCrawlWatch(server: Server, deps: ApiDeps): { close(): void } {
  // Echo the subprotocol the key came in: a client that offers one drops a server that picks none.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4_096, handleProtocols: (protocols) => protocols.values().next().value ?? false });

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const id = WATCH_PATH.exec(req.url ?? '')?.[1];
    if (!id) return refuse(socket, new AppError('NOT_FOUND', `No WebSocket at ${req.url}; watch /v2/crawl/{id} or /v2/batch/scrape/{id}`));
    const key = keyOf(req);
    if (!key) return refuse(socket, new AppError('UNAUTHORIZED', 'Missing API key: send Authorization: Bearer <key>, or the key as the WebSocket subprotocol'));
    const team = await authenticate(deps.db, key);
    if (!team) return refuse(socket, new AppError('UNAUTHORIZED', 'Unknown or revoked API key'));
    const job = await findJob(deps.db, team.teamId, id);
    if (!job || (job.kind !== 'crawl' && job.kind !== 'batch')) return refuse(socket, new AppError('NOT_FOUND', `No crawl ${id}`));
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', (err) => deps.logger.warn({ err, jobId: id }, 'crawl watcher connection failed'));
      // A watcher that vanished without closing is dropped at the next missed pong, not when TCP gives up.
      let alive = true;
      ws.on('pong', () => (alive = true));
      const heartbeat = setInterval(() => {
        if (!alive) return ws.terminate();
        alive = false;
        ws.ping();
      }, HEARTBEAT_MS);
      ws.on('close', () => clearInterval(heartbeat));
      streamJob(deps, ws, team.teamId, id).catch((err: unknown) => {
        if (ws.readyState !== 1) return; // the watcher left while a message was on its way
        deps.logger.error({ err, jobId: id }, 'crawl watcher failed');
        ws.close(1011, 'internal error; poll GET /v2/crawl/{id} instead');
      });
    });
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    upgrade(req, socket, head).catch((err: unknown) => {
      deps.logger.error({ err, url: req.url }, 'crawl watcher upgrade failed');
      refuse(socket, dependencyOutage(err) ?? new AppError('INTERNAL_ERROR', 'The watcher could not start; poll GET /v2/crawl/{id} instead'));
    });
  });
  return {
    close: () => {
      for (const ws of wss.clients) ws.close(1001, 'server stopping');
      wss.close();
    },
  };
}
