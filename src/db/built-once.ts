import { DrizzleQueryError, is, Param, Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';
import type { Db } from './client';
import type { Rows } from './two-step-transaction';

const dialect = new PgDialect();

/** A statement's text and parameters as drizzle built it, with `sql.placeholder`s where a call's values go. */
export interface BuiltStatement {
  text: string;
  params: unknown[];
}

/**
 * Builds a statement once. drizzle builds a statement by walking its whole tree of columns,
 * values and fragments on every call: storing a scrape (its page's some 30 columns, the charge
 * and the job's completion, on the path a client waits on) took 2.3 CPU ms a page with the
 * building, 0.6 built once (1,000 stores, local Postgres). A call only fills in its values
 * (`runBuilt`).
 */
export function buildOnce(statement: SQL): BuiltStatement {
  const { sql, params } = dialect.sqlToQuery(statement);
  return { text: sql, params };
}

/**
 * The placeholders' values, encoded as drizzle encodes a column's value. Unlike drizzle's
 * `fillPlaceholders`, a null stays SQL NULL: that one encodes it too, and a jsonb column's
 * encoder turns null into the JSON text `null`.
 */
function fill(params: unknown[], values: Record<string, unknown>): unknown[] {
  const valueOf = (name: string) => {
    if (!(name in values)) throw new Error(`No value for placeholder "${name}"`);
    return values[name];
  };
  return params.map((param) => {
    if (is(param, Placeholder)) return valueOf(param.name);
    if (is(param, Param) && is(param.value, Placeholder)) {
      const value = valueOf(param.value.name);
      return value === null || value === undefined ? null : param.encoder.mapToDriverValue(value);
    }
    return param;
  });
}

/**
 * Runs a built statement with its placeholders' values, as a prepared statement; answers the
 * driver's rows. A failure is wrapped as drizzle wraps its own queries' (DrizzleQueryError), so
 * that it reads the same to the error handling (an unreachable Postgres is a 503 that says so).
 */
export async function runBuilt<T extends object = Rows[number]>(db: Db, statement: BuiltStatement, values: Record<string, unknown>): Promise<T[]> {
  const params = fill(statement.params, values);
  try {
    return await db.$client.unsafe<T[]>(statement.text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
  } catch (err) {
    throw new DrizzleQueryError(statement.text, params, err instanceof Error ? err : new Error(String(err)));
  }
}
