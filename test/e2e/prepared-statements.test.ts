import { sql } from 'drizzle-orm';
import { inject, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/client';

describe('database client', () => {
  it('runs drizzle queries as prepared statements, inside transactions too, and prepares each text once', async () => {
    // One connection, so every query below shares the session whose statements are listed.
    const database = connectDatabase(inject('databaseUrl'), 1);
    try {
      const prepared = async () =>
        (await database.sql`select statement from pg_prepared_statements`).map((r) => String(r.statement)).filter((s) => s.includes('wcs_prepared_probe'));
      const probe = (n: number) => database.db.execute(sql`select ${n}::int as wcs_prepared_probe`);
      await probe(1);
      await probe(2);
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`select ${3}::int as wcs_prepared_probe, 'in a transaction' as via`);
      });
      const statements = await prepared();
      expect(statements).toHaveLength(2);
      expect(statements.some((s) => s.includes('in a transaction'))).toBe(true);
    } finally {
      await database.close();
    }
  });
});
