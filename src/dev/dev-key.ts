import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { authenticate, createApiKey } from '../accounts/api-keys';
import { ensureTeam } from '../accounts/teams';
import { grant } from '../credits/ledger';
import type { Db } from '../db/client';

export const DEV_TEAM = 'dev';
export const DEV_CREDITS = 1_000_000;

/**
 * The development key: created on first run for team "dev" with 1,000,000 credits, kept in
 * `<dataDir>/dev-api-key` (mode 0600) and reused while it is still valid.
 */
export async function ensureDevKey(db: Db, dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'dev-api-key');
  const team = await ensureTeam(db, DEV_TEAM);
  await grant(db, { teamId: team.id, amount: DEV_CREDITS, operation: 'grant', idempotencyKey: `dev-initial-grant:${team.id}` });
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (await authenticate(db, key)) return key;
  }
  const { key } = await createApiKey(db, team.id);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
