import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';

const MIGRATIONS = path.resolve(__dirname, '../../drizzle');
/** Any constant: the API and the worker both migrate on start; the lock makes one wait. */
const MIGRATION_LOCK = 727_001;

/**
 * Applies the generated migrations in `drizzle/`, once, however many processes start at once.
 * Uses its own single connection so that the advisory lock and the migration share a session.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS });
  } finally {
    await sql.end({ timeout: 5 });
  }
}
