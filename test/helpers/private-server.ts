import net from 'node:net';

export interface PrivateServer {
  port: number;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** TCP connections accepted so far, whatever was sent on them. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A TCP server on a free 127.0.0.1 port that is not in ALLOW_PRIVATE_HOSTS: a stand-in for an
 * internal service. It counts every connection that reaches it and answers none of them, so a
 * test can assert that a refused URL never opened a socket here.
 */
export async function startPrivateServer(): Promise<PrivateServer> {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
