import net from 'node:net';

/**
 * Ports this process has handed out. The OS may offer a port again once the probe that found it
 * has closed, and a stack asks for several at once (its API's, its worker's metrics): two of
 * them must never be the same.
 */
const handedOut = new Set<number>();

/** Binds `port` (0: any the OS picks) on 127.0.0.1 and lets it go; the port it got, or null when taken. */
function probe(port = 0): Promise<number | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as net.AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

function claim(port: number | null): port is number {
  if (port === null || handedOut.has(port)) return false;
  handedOut.add(port);
  return true;
}

/** A TCP port that was free a moment ago on 127.0.0.1, and not handed out before by this process. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await probe();
    if (claim(port)) return port;
  }
}

/**
 * The same, below 32768: the OS's own picks are ephemeral ports above it, and the Temporal server
 * keeps its services' ports in a signed 16-bit column (cluster_membership.rpc_port), so it refuses
 * to start on one of those.
 */
export async function freeLowPort(): Promise<number> {
  for (;;) {
    const port = await probe(20_000 + Math.floor(Math.random() * 12_768));
    if (claim(port)) return port;
  }
}
