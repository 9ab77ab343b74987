import net from 'node:net';

/**
 * Ports this process has handed out. The OS may offer a port again once the probe that found it
 * has closed, and a stack asks for several at once (its API's, its worker's metrics): two of
 * them must never be the same.
 */
const handedOut = new Set<number>();

function probe(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A TCP port that was free a moment ago on 127.0.0.1, and not handed out before by this process. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await probe();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}
