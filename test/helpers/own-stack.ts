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
    // A replica's adaptive limit follows its event loop, which on a machine running many test
    // files at once runs late and busy for the neighbours' sake: a test's few scrapes must not be
    // refused for that. (backpressure.test.ts and loop-delay-limit.test.ts test the limit.)
    env: { SCRAPE_LOOP_DELAY_MS: '0', SCRAPE_LOOP_BUSY_PERCENT: '0', ...o.env },
  });
}
