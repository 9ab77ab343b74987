import { Agent, buildConnector } from 'undici';
import { defaultPort, type PublicUrlGate } from './public-url-gate';

export interface GuardedAgentOptions {
  /** Verify TLS certificates (a request's `skipTlsVerification` turns this off). */
  rejectUnauthorized: boolean;
  /** Milliseconds allowed for TCP + TLS set-up. */
  connectTimeoutMs: number;
}

/**
 * An undici Agent whose every socket goes through the public-URL gate at connect time: IP
 * literals are checked before connecting, names inside the socket's own DNS lookup.
 */
export function createGuardedAgent(gate: PublicUrlGate, options: GuardedAgentOptions): Agent {
  const connectors = new Map<number, buildConnector.connector>();
  const connectorFor = (port: number) => {
    let connector = connectors.get(port);
    if (!connector) {
      connector = buildConnector({
        lookup: gate.lookupFor(port),
        rejectUnauthorized: options.rejectUnauthorized,
        timeout: options.connectTimeoutMs,
      } as buildConnector.BuildOptions);
      connectors.set(port, connector);
    }
    return connector;
  };
  return new Agent({
    keepAliveTimeout: 10_000,
    connections: 16,
    connect(opts, callback) {
      const port = Number(opts.port) || defaultPort(opts.protocol);
      try {
        gate.assertLiteral(opts.hostname, port);
      } catch (err) {
        callback(err as Error, null);
        return;
      }
      connectorFor(port)(opts, callback);
    },
  });
}
