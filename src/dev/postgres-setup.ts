import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';

export interface ProvidedDatabase {
  url: string;
  /** Where the database came from, for the start-up banner. */
  source: 'DATABASE_URL' | 'local server' | 'embedded PGlite';
  /** Stops what was started for it (the PGlite socket server); drops it when `drop` was asked. */
  stop(): Promise<void>;
}

export interface ProvideOptions {
  /** Database to create on a local server. */
  name: string;
  /** Directory for PGlite's files when no server exists. */
  dataDir: string;
  /** Drop the database on stop (tests). */
  drop?: boolean;
  /** host:port of the local server to look for (127.0.0.1:5432). */
  localServer?: string;
  log: (message: string) => void;
}

const LOCAL = '127.0.0.1:5432';

async function canConnect(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

async function createIfMissing(adminUrl: string, name: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await sql`select 1 from pg_database where datname = ${name}`;
    if (!exists) await sql.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await sql.end({ timeout: 2 });
  }
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "${name.replace(/"/g, '""')}" with (force)`);
  } finally {
    await sql.end({ timeout: 2 });
  }
}

/**
 * DATABASE_URL when set; else a database of our own on a local server at 127.0.0.1:5432 (trust
 * or PG* credentials); else an embedded PGlite under `dataDir`, served over the wire protocol so
 * the API and worker processes can both reach it.
 */
export async function provideDatabase(o: ProvideOptions): Promise<ProvidedDatabase> {
  const configured = process.env.DATABASE_URL;
  if (configured && !o.drop) return { url: configured, source: 'DATABASE_URL', stop: async () => {} };

  const users = [...new Set([process.env.PGUSER, os.userInfo().username, 'postgres'].filter(Boolean))] as string[];
  const password = process.env.PGPASSWORD ? `:${encodeURIComponent(process.env.PGPASSWORD)}` : '';
  const local = o.localServer ?? LOCAL;
  const candidates = configured ? [configured] : users.map((u) => `postgres://${encodeURIComponent(u)}${password}@${local}/postgres`);
  for (const candidate of candidates) {
    if (!(await canConnect(candidate))) continue;
    const admin = withDatabase(candidate, 'postgres');
    await createIfMissing(admin, o.name);
    return {
      url: withDatabase(candidate, o.name),
      source: configured ? 'DATABASE_URL' : 'local server',
      stop: async () => {
        if (o.drop) await dropDatabase(admin, o.name);
      },
    };
  }

  o.log(`no Postgres at ${local}; using embedded PGlite in ${o.dataDir}`);
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  mkdirSync(path.dirname(o.dataDir), { recursive: true });
  const db = await PGlite.create(o.dataDir);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 32 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    source: 'embedded PGlite',
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
