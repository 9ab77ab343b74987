import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiKey, authenticate } from '../../src/accounts/api-keys';
import { ensureTeam } from '../../src/accounts/teams';
import { connectDatabase } from '../../src/db/client';
import { migrateDatabase } from '../../src/db/migrate';
import { provideDatabase } from '../../src/dev/postgres-setup';
import { freePort } from '../helpers/free-port';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wcs-pglite-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm start without any Postgres server', () => {
  it('falls back to embedded PGlite under the data directory, migrated and usable over the wire, and keeps its data', async () => {
    const nowhere = `127.0.0.1:${await freePort()}`;
    const first = await provideDatabase({ name: 'web_context_service', dataDir, localServer: nowhere, log: () => {} });
    expect(first.source).toBe('embedded PGlite');
    await migrateDatabase(first.url);
    const db = connectDatabase(first.url, 4);
    const team = await ensureTeam(db.db, 'pglite');
    const { key } = await createApiKey(db.db, team.id);
    expect(await authenticate(db.db, key)).toMatchObject({ teamName: 'pglite' });
    await db.close();
    await first.stop();

    const again = await provideDatabase({ name: 'web_context_service', dataDir, localServer: nowhere, log: () => {} });
    const reopened = connectDatabase(again.url, 1);
    expect(await authenticate(reopened.db, key)).toMatchObject({ teamName: 'pglite' });
    await reopened.close();
    await again.stop();
  });
});
