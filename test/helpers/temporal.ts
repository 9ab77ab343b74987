import { Client, Connection } from '@temporalio/client';
import { inject } from 'vitest';

let shared: Promise<Client> | undefined;

/** A Temporal client on the run's dev server, for triggering Schedules and reading histories. */
export function testTemporal(): Promise<Client> {
  shared ??= Connection.connect({ address: inject('temporalAddress') }).then((connection) => new Client({ connection }));
  return shared;
}
