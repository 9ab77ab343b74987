import { execFile } from 'node:child_process';
import { accessSync, chownSync, constants, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A PostgreSQL server of our own (initdb'd data directory, pg_ctl), to start, stop and start again. */
export interface PostgresServer {
  port: number;
  /** The superuser initdb created. */
  user: string;
  /** `postgres://` URL of `database` as the superuser. */
  url(database: string): string;
  /** `pg_ctl start -w`: returns once the server accepts connections. */
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: sessions are terminated, as in an operator's restart. */
  stop(): Promise<void>;
  /** `pg_ctl stop -m immediate` if it runs; nothing if it does not. */
  stopNow(): Promise<void>;
  /** `pg_isready`: the health check docker-compose.yml gives its `postgres` service. */
  isReady(database: string): Promise<boolean>;
}

export interface PostgresServerOptions {
  /** initdb and pg_ctl's directory (postgresBinDir()). */
  binDir: string;
  /** The server's folder: its data directory (made by initdb when missing), socket and log. */
  dir: string;
  port: number;
  /** Superuser initdb creates (default postgres). */
  user?: string;
  /** Its password: TCP connections then authenticate with it (scram-sha-256), as the postgres image does; none trusts them. */
  password?: string;
  /** fsync off, for a server thrown away after a test: a stop need not wait for the disk. */
  throwaway?: boolean;
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

/** Sets up the server's data directory (initdb) unless it exists; the server is not started. */
export async function preparePostgresServer(o: PostgresServerOptions): Promise<PostgresServer> {
  const user = o.user ?? 'postgres';
  const data = path.join(o.dir, 'data');
  mkdirSync(o.dir, { recursive: true });
  const osUser = await serverUser(o.dir);
  const pg = (tool: string, args: string[]) => {
    const file = path.join(o.binDir, tool);
    return osUser ? run('runuser', ['-u', osUser, '--', file, ...args]) : run(file, args);
  };
  if (!existsSync(path.join(data, 'PG_VERSION'))) {
    const auth = ['--auth-local=trust', `--auth-host=${o.password ? 'scram-sha-256' : 'trust'}`];
    const passwordFile = path.join(o.dir, 'initdb-password');
    if (o.password) writeFileSync(passwordFile, o.password, { mode: 0o644 });
    try {
      await pg('initdb', ['-D', data, '-U', user, ...auth, ...(o.password ? [`--pwfile=${passwordFile}`] : []), '-E', 'UTF8', '--locale=C', '--no-sync']);
    } finally {
      rmSync(passwordFile, { force: true });
    }
  }
  const pgCtl = (args: string[]) => pg('pg_ctl', ['-D', data, '-w', ...args]);
  const settings = [`-p ${o.port}`, `-k ${o.dir}`, '-c listen_addresses=127.0.0.1', ...(o.throwaway ? ['-c fsync=off'] : [])].join(' ');
  const credentials = o.password ? `${encodeURIComponent(user)}:${encodeURIComponent(o.password)}` : encodeURIComponent(user);
  return {
    port: o.port,
    user,
    url: (database) => `postgres://${credentials}@127.0.0.1:${o.port}/${database}`,
    start: async () => void (await pgCtl(['-l', path.join(o.dir, 'server.log'), '-o', settings, 'start'])),
    stop: async () => void (await pgCtl(['-m', 'fast', 'stop'])),
    stopNow: async () => void (await pgCtl(['-m', 'immediate', 'stop']).catch(() => {})), // not running: nothing to do
    isReady: (database) =>
      run(path.join(o.binDir, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(o.port), '-U', user, '-d', database]).then(
        () => true,
        () => false,
      ),
  };
}
