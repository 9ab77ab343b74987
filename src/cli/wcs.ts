import { parseArgs } from 'node:util';
import { createApiKey, listApiKeys, revokeApiKey } from '../accounts/api-keys';
import { ensureTeam, findTeamByName } from '../accounts/teams';
import { grant } from '../credits/ledger';
import { connectDatabase, type Db } from '../db/client';
import { jobs, teams } from '../db/schema';
import { migrateDatabase } from '../db/migrate';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../config/env';
import { retryFailedPages } from '../crawl/retry-failed-pages';
import { createTemporalClient } from '../temporal/client';
import { crawlCommand } from './crawl-command';
import { serveMcpOverStdio } from '../mcp/stdio';
import { setLimits, showLimits } from './limits-command';
import { listMonitorsCommand } from './monitors-command';
import { cliDatabaseUrl, cliTemporalAddress } from './runtime-info';
import { UsageError } from './usage-error';

const USAGE = `wcs: administer web-context-service

  wcs keys create --team <name> [--credits N]   create a key (and the team); prints the key once
  wcs keys list                                  list keys: prefix, team, created, revoked
  wcs keys revoke <prefix>                       revoke the key that starts with <prefix>
  wcs credits add --team <name> <N>              add N credits to a team
  wcs credits show --team <name>                 show a team's balance
  wcs webhooks secret --team <name>              print the key that signs the team's webhooks
  wcs crawl <url> [--limit N] [--depth N] [--out DIR]
                                                 crawl through the API with live progress; write
                                                 one markdown file per page and graph.dot to DIR
  wcs crawl retry <id> [--url U]...              re-scrape a crawl's failed pages (all, or these)
  wcs mcp                                        serve the MCP tools over stdio, for an MCP client
  wcs monitors [--team <name>]                   list monitors: id, team, name, Schedule state, cron,
                                                 next run, last check, Schedule id
  wcs limits show --team <name>                  show a team's limits (its own, or the defaults)
  wcs limits set --team <name> [--requests-per-minute N] [--key-requests-per-minute N]
                 [--pages-in-flight N]           set a team's limits; N=default drops its own

Administration reads DATABASE_URL (and TEMPORAL_ADDRESS), else what a running \`npm start\`
recorded. \`wcs crawl\` and \`wcs mcp\` call the API at WCS_API_URL with WCS_API_KEY, else \`npm start\`'s.`;

function positiveInt(value: string | undefined, what: string): number {
  const n = Number(value);
  if (!value || !Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${what} must be a positive whole number (got ${value ?? 'nothing'})`);
  return n;
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

type Command = (db: Db, args: string[]) => Promise<void>;

const commands: Record<string, Command> = {
  'keys create': async (db, args) => {
    const { values } = parseArgs({ args, options: { team: { type: 'string' }, credits: { type: 'string' } } });
    // Validate every argument before the team is created, so bad usage changes nothing.
    const name = required(values.team, '--team');
    const amount = values.credits === undefined ? 0 : positiveInt(values.credits, '--credits');
    const team = await ensureTeam(db, name);
    if (amount > 0) await grant(db, { teamId: team.id, amount, operation: 'grant', idempotencyKey: `cli-grant:${crypto.randomUUID()}` });
    const { key } = await createApiKey(db, team.id);
    console.log(key);
  },
  'keys list': async (db) => {
    const keys = await listApiKeys(db);
    if (keys.length === 0) return console.log('no keys');
    for (const k of keys) {
      console.log([k.prefix, k.team, k.createdAt.toISOString(), k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'live'].join('\t'));
    }
  },
  'keys revoke': async (db, args) => {
    const { positionals } = parseArgs({ args, allowPositionals: true });
    console.log(`revoked ${await revokeApiKey(db, required(positionals[0], '<prefix>'))}`);
  },
  'credits add': async (db, args) => {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { team: { type: 'string' } } });
    const name = required(values.team, '--team');
    const team = await findTeamByName(db, name);
    if (!team) throw new UsageError(`no team named "${name}"`);
    const amount = positiveInt(positionals[0], 'N');
    await grant(db, { teamId: team.id, amount, operation: 'grant', idempotencyKey: `cli-grant:${crypto.randomUUID()}` });
    console.log(`${name}: ${team.credits + amount} credits`);
  },
  'webhooks secret': async (db, args) => {
    const { values } = parseArgs({ args, options: { team: { type: 'string' } } });
    const name = required(values.team, '--team');
    const [team] = await db.select({ secret: teams.webhookSecret }).from(teams).where(eq(teams.name, name));
    if (!team) throw new UsageError(`no team named "${name}"`);
    console.log(team.secret);
  },
  'crawl retry': async (db, args) => {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { url: { type: 'string', multiple: true } } });
    const id = required(positionals[0], '<id>');
    const [job] = await db.select().from(jobs).where(eq(jobs.id, id));
    if (!job || (job.kind !== 'crawl' && job.kind !== 'batch')) throw new UsageError(`no crawl ${id}`);
    const config = loadConfig({ ...process.env, DATABASE_URL: cliDatabaseUrl(), TEMPORAL_ADDRESS: cliTemporalAddress() });
    const temporal = createTemporalClient(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE);
    try {
      const retrying = await retryFailedPages({ db, temporal, config }, job, values.url);
      console.log(retrying > 0 ? `retrying ${retrying} failed page(s) of crawl ${id} (workflow crawl-${id})` : `crawl ${id} has no failed pages to retry`);
    } finally {
      await temporal.connection.close();
    }
  },
  'limits show': showLimits,
  'monitors list': listMonitorsCommand,
  'limits set': setLimits,
  'credits show': async (db, args) => {
    const { values } = parseArgs({ args, options: { team: { type: 'string' } } });
    const name = required(values.team, '--team');
    const team = await findTeamByName(db, name);
    if (!team) throw new UsageError(`no team named "${name}"`);
    console.log(`${name}: ${team.credits} credits`);
  },
};

async function main(argv: string[]): Promise<number> {
  const [group, action, ...rest] = argv;
  if (group === 'mcp' && action === undefined) {
    await serveMcpOverStdio();
    return 0;
  }
  if (group === 'crawl' && action !== 'retry') {
    await crawlCommand(argv.slice(1));
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  }
  // `wcs monitors` lists them; its options follow directly.
  if (group === 'monitors' && (action === undefined || action.startsWith('--'))) return main(['monitors', 'list', ...argv.slice(1)]);
  const command = commands[`${group} ${action}`];
  if (!command) {
    console.error(USAGE);
    return group === undefined || group === 'help' || group === '--help' ? 0 : 2;
  }
  const url = cliDatabaseUrl();
  await migrateDatabase(url);
  const database = connectDatabase(url, 1);
  try {
    await command(database.db, rest);
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`wcs: ${err instanceof Error ? err.message : String(err)}`);
    if (err instanceof UsageError) console.error(`\n${USAGE}`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
