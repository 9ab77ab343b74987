import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { preparingClient } from './prepared-statements';
import * as schema from './schema';

/** drizzle over postgres.js; `$client` is for the few statements that need the driver itself (see two-step-transaction.ts). */
export type Db = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either a pool or an open transaction: read helpers take both. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  sql: postgres.Sql;
  close(): Promise<void>;
}

export function connectDatabase(url: string, poolSize: number): Database {
  const sql = postgres(url, { max: poolSize, onnotice: () => {}, connect_timeout: 10 });
  return { db: drizzle(preparingClient(sql), { schema }), sql, close: () => sql.end({ timeout: 5 }) };
}
