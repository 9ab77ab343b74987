import { execFile } from 'node:child_process';
import { accessSync, chownSync, constants, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { migrateDatabase } from '../../src/db/migrate';
import { freePort } from './free-port';

const run = promisify(execFile);

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

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The directory holding initdb and pg_ctl: the newest /usr/lib/postgresql/<major>/bin, else PATH. */
export function postgresBinDir(): string | undefined {
  const debian = '/usr/lib/postgresql';
  let majors: string[] = [];
  try {
    majors = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
  } catch {
    // not the Debian layout
  }
  const dirs = [...majors.map((m) => path.join(debian, m, 'bin')), ...(process.env.PATH ?? '').split(path.delimiter)];
  return dirs.find((dir) => dir && isExecutable(path.join(dir, 'initdb')) && isExecutable(path.join(dir, 'pg_ctl')));
}

/**
 * The OS user to run initdb and pg_ctl as, if not ourselves: they refuse to run as root, so as
 * root they run as `postgres`, who then owns the directory.
 */
async function serverUser(dir: string): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
  chownSync(dir, await id('-u'), await id('-g'));
  return 'postgres';
}

/** initdb into a temp dir and start on a free 127.0.0.1 port, trusting local connections. */
export async function startThrowawayPostgres(binDir: string): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wcs-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const user = await serverUser(dir);
  const pg = (tool: string, args: string[]) => {
    const file = path.join(binDir, tool);
    return user ? run('runuser', ['-u', user, '--', file, ...args]) : run(file, args);
  };
  const pgCtl = (args: string[]) => pg('pg_ctl', ['-D', data, '-w', ...args]);
  const started = async () => {
    // fsync off: the server is thrown away, and a stop must not wait for the disk.
    await pgCtl(['-l', path.join(dir, 'server.log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  };
  try {
    await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    await started();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: started,
    stop: async () => void (await pgCtl(['-m', 'fast', 'stop'])),
    async destroy() {
      await pgCtl(['-m', 'immediate', 'stop']).catch(() => {}); // already stopped: nothing to do
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A throwaway server with our schema migrated; fails clearly where the server binaries are missing. */
export async function startMigratedPostgres(): Promise<ThrowawayPostgres> {
  const binDir = postgresBinDir();
  if (!binDir) throw new Error('initdb and pg_ctl not found: install PostgreSQL server binaries (Debian: postgresql) to run this test');
  const pg = await startThrowawayPostgres(binDir);
  await migrateDatabase(pg.url);
  return pg;
}
