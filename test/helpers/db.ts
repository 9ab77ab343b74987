import { inject } from 'vitest';
import { connectDatabase, type Database } from '../../src/db/client';

let shared: Database | undefined;

/** A connection to the run's database, for asserting what was stored and charged. */
export function testDatabase(): Database {
  shared ??= connectDatabase(inject('databaseUrl'), 2);
  return shared;
}
