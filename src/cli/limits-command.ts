import { parseArgs } from 'node:util';
import { findTeamByName } from '../accounts/teams';
import type { Db } from '../db/client';
import { setTeamLimits, TEAM_LIMIT_NAMES, teamLimitsOf, type TeamLimitOverrides } from '../limits/team-limits';
import { UsageError } from './usage-error';

/** The flag of each limit: `requestsPerMinute` is `--requests-per-minute`. */
const flagOf = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** What each limit falls back to when the team has no override. */
const DEFAULTS: Record<keyof TeamLimitOverrides, string> = {
  requestsPerMinute: 'TEAM_RATE_LIMIT_PER_MINUTE',
  keyRequestsPerMinute: 'RATE_LIMIT_PER_MINUTE',
  pagesInFlight: 'TEAM_PAGES_IN_FLIGHT',
};

/** One line per limit: its flag name and the team's value, or the setting it defaults to. */
function describe(limits: TeamLimitOverrides): string {
  return TEAM_LIMIT_NAMES.map((n) => `${flagOf(n)}\t${limits[n] ?? `default (${DEFAULTS[n]})`}`).join('\n');
}

async function teamNamed(db: Db, name: string | undefined) {
  if (!name) throw new UsageError('--team is required');
  const team = await findTeamByName(db, name);
  if (!team) throw new UsageError(`no team named "${name}"`);
  return team;
}

/** `N` (a whole number; 0 means unlimited for request limits) or `default` (drop the override). */
function limitValue(name: keyof TeamLimitOverrides, value: string): number | null {
  if (value === 'default') return null;
  const n = Number(value);
  const min = name === 'pagesInFlight' ? 1 : 0;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`--${flagOf(name)} must be a whole number of at least ${min}, or "default" (got ${value})`);
  return n;
}

/** `wcs limits show --team <name>` */
export async function showLimits(db: Db, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { team: { type: 'string' } } });
  const team = await teamNamed(db, values.team);
  console.log(describe(await teamLimitsOf(db, team.id)));
}

/** `wcs limits set --team <name> [--requests-per-minute N|default] [--key-requests-per-minute N|default] [--pages-in-flight N|default]` */
export async function setLimits(db: Db, args: string[]): Promise<void> {
  const options = Object.fromEntries([['team', { type: 'string' } as const], ...TEAM_LIMIT_NAMES.map((n) => [flagOf(n), { type: 'string' } as const])]);
  const { values } = parseArgs({ args, options }) as { values: Record<string, string | undefined> };
  const changes: Partial<TeamLimitOverrides> = {};
  for (const name of TEAM_LIMIT_NAMES) {
    const value = values[flagOf(name)];
    if (value !== undefined) changes[name] = limitValue(name, value);
  }
  if (Object.keys(changes).length === 0) throw new UsageError(`name at least one limit: ${TEAM_LIMIT_NAMES.map((n) => `--${flagOf(n)}`).join(', ')}`);
  const team = await teamNamed(db, values.team);
  console.log(describe(await setTeamLimits(db, team.id, changes)));
}
