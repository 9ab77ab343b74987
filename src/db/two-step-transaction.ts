import type { SQLWrapper } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';
import type { Db } from './client';

const dialect = new PgDialect();

/** Rows as Postgres returns them, keyed by column name. */
export type Rows = Record<string, unknown>[];

/**
 * A transaction whose final statements go out together with COMMIT. After BEGIN (postgres.js
 * waits for its answer), the first statements go out together; from their results `then`
 * decides the rest, which leave in one write with COMMIT. Nothing waits on the client between
 * the final statements and COMMIT, so a row they lock (a crawl's budget, a team's balance) is
 * held only while Postgres runs them. On a busy machine a client round trip takes milliseconds,
 * and every transaction queued for the same row would wait that long again.
 *
 * The final statements must not depend on each other's results. If one fails, COMMIT finds the
 * transaction aborted and rolls it back, and the error is thrown.
 */
export async function twoStepTransaction(db: Db, first: SQLWrapper[], then: (results: Rows[]) => SQLWrapper[]): Promise<{ first: Rows[]; final: Rows[] }> {
  let final: Promise<Rows>[] = [];
  const firstResults = await db.$client.begin(async (tx) => {
    const results = await Promise.all(first.map((statement) => run(tx, statement)));
    // Executing queues each statement on the transaction's connection now, ahead of the COMMIT
    // that postgres.js sends once this callback returns; all of them leave in one write.
    final = then(results).map((statement) => run(tx, statement).execute());
    return results;
  });
  return { first: firstResults, final: await Promise.all(final) };
}

function run(tx: postgres.TransactionSql, statement: SQLWrapper): postgres.PendingQuery<postgres.Row[]> {
  const { sql, params } = dialect.sqlToQuery(statement.getSQL());
  return tx.unsafe(sql, params as postgres.ParameterOrJSON<never>[], { prepare: true });
}
