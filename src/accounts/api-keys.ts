import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, like, type Placeholder } from 'drizzle-orm';
import type { Db } from '../db/client';
import { apiKeys, teams } from '../db/schema';

const KEY_PREFIX = 'wcs_';
/** Characters of a key shown to people and used to revoke it: `wcs_` and 8 of the secret. */
const DISPLAY_LENGTH = 12;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface AuthenticatedTeam {
  teamId: string;
  teamName: string;
  keyPrefix: string;
  /** The operator's pagesInFlight for the team (`wcs limits`), read with the key; absent: the deployment's default. */
  pagesInFlight?: number;
}

/** Creates a key for the team and returns it; this is the only time the secret exists in full. */
export async function createApiKey(db: Db, teamId: string): Promise<{ key: string; prefix: string }> {
  const key = KEY_PREFIX + randomBytes(24).toString('base64url');
  const prefix = key.slice(0, DISPLAY_LENGTH);
  await db.insert(apiKeys).values({ teamId, prefix, keyHash: hashApiKey(key) });
  return { key, prefix };
}

/** The query for the team a live (not revoked) key belongs to, by the key's hash (or a placeholder for it): at most one row. */
export function liveKeyQuery(db: Db, keyHash: string | Placeholder) {
  return db
    .select({ teamId: teams.id, teamName: teams.name, keyPrefix: apiKeys.prefix })
    .from(apiKeys)
    .innerJoin(teams, eq(teams.id, apiKeys.teamId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
}

/** The team a live (not revoked) key belongs to. */
export async function authenticate(db: Db, key: string): Promise<AuthenticatedTeam | undefined> {
  const [row] = await liveKeyQuery(db, hashApiKey(key));
  return row;
}

export async function listApiKeys(db: Db) {
  return db
    .select({ prefix: apiKeys.prefix, team: teams.name, createdAt: apiKeys.createdAt, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .innerJoin(teams, eq(teams.id, apiKeys.teamId))
    .orderBy(desc(apiKeys.createdAt));
}

/**
 * Revokes the live keys whose display prefix starts with `prefix`. Refuses an ambiguous prefix
 * rather than revoking several keys by accident.
 */
export async function revokeApiKey(db: Db, prefix: string): Promise<string> {
  const matches = await db
    .select({ id: apiKeys.id, prefix: apiKeys.prefix })
    .from(apiKeys)
    .where(and(like(apiKeys.prefix, `${prefix.replace(/[\\%_]/g, '\\$&')}%`), isNull(apiKeys.revokedAt)));
  if (matches.length === 0) throw new Error(`No live key starts with "${prefix}"`);
  if (matches.length > 1) throw new Error(`"${prefix}" matches ${matches.length} keys (${matches.map((m) => m.prefix).join(', ')}); give more characters`);
  await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, matches[0]!.id));
  return matches[0]!.prefix;
}
