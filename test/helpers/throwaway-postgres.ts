import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateDatabase } from '../../src/db/migrate';
import { postgresBinDir, preparePostgresServer } from '../../src/dev/postgres-server';
import { freePort } from './free-port';

export { postgresBinDir };

/** A PostgreSQL server of one test's own, to stop and start under a running API. */
export interface ThrowawayPostgres {
  url: string;
  /** `pg_ctl start -w`: returns once the server accepts connections. */
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: sessions are terminated, as in an operator's restart. */
  stop(): Promise<void>;
  /** Stops the server if it runs and deletes its files. */
  destroy(): Promise<void>;
}

/** initdb into a temp dir and start on a free 127.0.0.1 port, trusting local connections. */
export async function startThrowawayPostgres(binDir: string): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wcs-pg-'));
  try {
    const server = await preparePostgresServer({ binDir, dir, port: await freePort(), throwaway: true });
    await server.start();
    return {
      url: server.url('postgres'),
      start: () => server.start(),
      stop: () => server.stop(),
      async destroy() {
        await server.stopNow();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** A throwaway server with our schema migrated; fails clearly where the server binaries are missing. */
export async function startMigratedPostgres(): Promise<ThrowawayPostgres> {
  const binDir = postgresBinDir();
  if (!binDir) throw new Error('initdb and pg_ctl not found: install PostgreSQL server binaries (Debian: postgresql) to run this test');
  const pg = await startThrowawayPostgres(binDir);
  await migrateDatabase(pg.url);
  return pg;
}
