import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { teams } from '../db/schema';

export interface Team {
  id: string;
  name: string;
  credits: number;
}

/** The team with this name, created (with no credits) if it does not exist yet. */
export async function ensureTeam(db: Db, name: string): Promise<Team> {
  await db.insert(teams).values({ name }).onConflictDoNothing({ target: teams.name });
  const [team] = await db.select({ id: teams.id, name: teams.name, credits: teams.credits }).from(teams).where(eq(teams.name, name));
  return team!;
}

export async function findTeamByName(db: Db, name: string): Promise<Team | undefined> {
  const [team] = await db.select({ id: teams.id, name: teams.name, credits: teams.credits }).from(teams).where(eq(teams.name, name));
  return team;
}
