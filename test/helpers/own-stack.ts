import path from 'node:path';
import { inject } from 'vitest';
import { startStack, type Stack } from './stack';

export interface OwnStackOptions {
  /** `host:port` entries (or hosts) the gate lets through: the test's own servers. */
  allowPrivateHosts: string[];
  /** Settings that make this stack differ from the shared one. */
  env?: Record<string, string>;
}

/**
 * An API and a worker of a test file's own, on the run's Temporal server, database and
 * Chromium, for settings the shared stack cannot have: task queues `<run prefix>-<name>` keep
 * its work apart, and its logs go to `<run log dir>/<name>`.
 */
export function startOwnStack(name: string, o: OwnStackOptions): Promise<Stack> {
  return startStack({
    databaseUrl: inject('databaseUrl'),
    temporalAddress: inject('temporalAddress'),
    chromiumPath: inject('chromiumPath'),
    allowPrivateHosts: o.allowPrivateHosts,
    queuePrefix: `${inject('queuePrefix')}-${name}`,
    logDir: path.join(inject('logDir'), name),
    ...(o.env && { env: o.env }),
  });
}
