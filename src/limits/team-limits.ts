import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { teamLimits } from '../db/schema';

/** A team's overrides; null (or absent) keeps the deployment's default for that limit. */
export type TeamLimitOverrides = Omit<typeof teamLimits.$inferSelect, 'teamId'>;

/** The names `wcs limits` shows and sets, in a stable order. */
export const TEAM_LIMIT_NAMES = ['requestsPerMinute', 'keyRequestsPerMinute', 'pagesInFlight'] as const satisfies readonly (keyof TeamLimitOverrides)[];

const NO_OVERRIDES: TeamLimitOverrides = { requestsPerMinute: null, keyRequestsPerMinute: null, pagesInFlight: null };

/** The team's overrides; all null when it has none. */
export async function teamLimitsOf(db: Queryable, teamId: string): Promise<TeamLimitOverrides> {
  const [row] = await db.select().from(teamLimits).where(eq(teamLimits.teamId, teamId));
  if (!row) return NO_OVERRIDES;
  const { teamId: _, ...overrides } = row;
  return overrides;
}

/** Changes the named overrides (null: back to the default), leaving the others as they were. */
export async function setTeamLimits(db: Queryable, teamId: string, changes: Partial<TeamLimitOverrides>): Promise<TeamLimitOverrides> {
  await db
    .insert(teamLimits)
    .values({ teamId, ...changes })
    .onConflictDoUpdate({ target: teamLimits.teamId, set: changes });
  return teamLimitsOf(db, teamId);
}
