import { parseArgs } from 'node:util';
import { desc, eq } from 'drizzle-orm';
import { findTeamByName } from '../accounts/teams';
import { loadConfig } from '../config/env';
import type { Db } from '../db/client';
import { monitors, teams } from '../db/schema';
import { describeMonitorSchedule, monitorScheduleId } from '../monitors/monitor-schedule';
import { checkStateOf } from '../monitors/monitor-store';
import { createTemporalClient } from '../temporal/client';
import { cliDatabaseUrl, cliTemporalAddress } from './runtime-info';
import { UsageError } from './usage-error';

/**
 * `wcs monitors [--team <name>]`: every monitor (or a team's), one tab-separated line each: id,
 * team, name, its Schedule's state as Temporal has it (active, paused, or missing), cron and time
 * zone, next run, and the last check's status and time. The Schedule id closes the line, for the
 * Temporal UI or `temporal schedule` commands.
 */
export async function listMonitorsCommand(db: Db, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { team: { type: 'string' } } });
  let teamId: string | undefined;
  if (values.team !== undefined) {
    const team = await findTeamByName(db, values.team);
    if (!team) throw new UsageError(`no team named "${values.team}"`);
    teamId = team.id;
  }
  const rows = await db
    .select({ id: monitors.id, name: monitors.name, cron: monitors.cron, timezone: monitors.timezone, team: teams.name })
    .from(monitors)
    .innerJoin(teams, eq(teams.id, monitors.teamId))
    .where(teamId ? eq(monitors.teamId, teamId) : undefined)
    .orderBy(desc(monitors.createdAt));
  if (rows.length === 0) return console.log('no monitors');
  const config = loadConfig({ ...process.env, DATABASE_URL: cliDatabaseUrl(), TEMPORAL_ADDRESS: cliTemporalAddress() });
  const temporal = createTemporalClient(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE);
  try {
    const checks = await checkStateOf(db, rows.map((r) => r.id));
    for (const row of rows) {
      const schedule = await describeMonitorSchedule(temporal, config, row.id);
      const last = checks.get(row.id)?.latest;
      console.log(
        [
          row.id,
          row.team,
          row.name,
          schedule ? (schedule.paused ? 'paused' : 'active') : 'missing',
          `${row.cron} (${row.timezone})`,
          schedule?.nextRunAt?.toISOString() ?? '-',
          last ? `${last.status} ${last.createdAt.toISOString()}` : 'never checked',
          monitorScheduleId(config, row.id),
        ].join('\t'),
      );
    }
  } finally {
    await temporal.connection.close();
  }
}
