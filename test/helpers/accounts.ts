import { createApiKey } from '../../src/accounts/api-keys';
import { ensureTeam } from '../../src/accounts/teams';
import { grant } from '../../src/credits/ledger';
import type { Db } from '../../src/db/client';

/** A team with `credits` and a fresh key for it. */
export async function createTeamWithKey(db: Db, name: string, credits: number): Promise<{ teamId: string; key: string; prefix: string }> {
  const team = await ensureTeam(db, name);
  if (credits > 0) await grant(db, { teamId: team.id, amount: credits, operation: 'grant', idempotencyKey: `test-grant:${team.id}` });
  const { key, prefix } = await createApiKey(db, team.id);
  return { teamId: team.id, key, prefix };
}
