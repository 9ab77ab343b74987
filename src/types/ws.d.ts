declare module 'ws' {
  import type { EventEmitter } from 'node:events';
  import type { IncomingMessage } from 'node:http';
  import type { Duplex } from 'node:stream';

  /** The part of ws 8's WebSocket this project uses (the package ships no types). */
  export class WebSocket extends EventEmitter {
    static readonly OPEN: 1;
    constructor(address: string, protocols?: string | string[], options?: { headers?: Record<string, string> });
    readonly readyState: 0 | 1 | 2 | 3;
    /** The subprotocol the server chose. */
    readonly protocol: string;
    send(data: string, cb?: (err?: Error) => void): void;
    close(code?: number, reason?: string): void;
    ping(): void;
    terminate(): void;
    on(event: 'message', listener: (data: Buffer) => void): this;
    on(event: 'close', listener: (code: number, reason: Buffer) => void): this;
    on(event: 'error', listener: (err: Error) => void): this;
    on(event: 'open', listener: () => void): this;
    on(event: 'pong', listener: () => void): this;
    on(event: 'unexpected-response', listener: (req: unknown, res: IncomingMessage) => void): this;
  }

  export interface ServerOptions {
    /** Upgrades are handed over with handleUpgrade instead of a server of its own. */
    noServer?: boolean;
    /** Largest message accepted from a client, in bytes. */
    maxPayload?: number;
    /** Picks the subprotocol to answer with among those the client offered; false for none. */
    handleProtocols?: (protocols: Set<string>, request: IncomingMessage) => string | false;
  }

  export class WebSocketServer extends EventEmitter {
    constructor(options: ServerOptions);
    readonly clients: Set<WebSocket>;
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, callback: (ws: WebSocket, request: IncomingMessage) => void): void;
    close(cb?: (err?: Error) => void): void;
  }
}
