import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { connectDatabase, type Database } from '../../src/db/client';
import { migrateDatabase } from '../../src/db/migrate';
import { waitFor } from '../../src/dev/child-process';
import { startTemporalDevServer } from '../../src/dev/temporal-dev-server';
import { createTeamWithKey } from '../helpers/accounts';
import { freeLowPort, freePort } from '../helpers/free-port';
import { startStack, type Stack } from '../helpers/stack';
import { activityPollerIdentities } from '../helpers/task-queue-pollers';
import { postgresBinDir, startThrowawayPostgres } from '../helpers/throwaway-postgres';
import { auditCrawl } from './crawl-audit';
import { startHostileSite, startTreeSite, type ChaosSite } from './chaos-site';
import { crawlStatus, crawlThroughFault, sleep, type ChaosResult, type ChaosSize } from './crawl-through-fault';

/** Where the scenarios run: a Temporal and a database to use (some start their own), Chromium, a loopback host for sites. */
export interface ChaosEnv {
  /** Database the scenarios' stacks use (the Postgres scenario starts a server of its own). */
  databaseUrl: string;
  /** Temporal frontend the stacks use (the Temporal scenario starts a server of its own). */
  temporalAddress: string;
  /** Chromium for the workers. */
  chromiumPath: string;
  /** A loopback host other than 127.0.0.1 for the sites the scenarios serve. */
  siteHost: string;
  /** Where each scenario's stack logs (a folder per scenario). */
  logDir: string;
  /** Progress lines. */
  log: (message: string) => void;
}

interface Harness {
  stack: Stack;
  db: Database;
  key: string;
  site: ChaosSite;
  close(): Promise<void>;
}

/** A stack of the scenario's own (own queues, small crawl batches), a team with credits, the tree site. */
async function harness(env: ChaosEnv, name: string, size: ChaosSize, o: { databaseUrl?: string; temporalAddress?: string } = {}): Promise<Harness> {
  const databaseUrl = o.databaseUrl ?? env.databaseUrl;
  const db = connectDatabase(databaseUrl, 2);
  const site = await startTreeSite(env.siteHost, size.pages, size.pageDelayMs);
  try {
    const { key } = await createTeamWithKey(db.db, `chaos-${name}-${Date.now()}`, 1_000_000);
    const stack = await startStack({
      databaseUrl,
      temporalAddress: o.temporalAddress ?? env.temporalAddress,
      chromiumPath: env.chromiumPath,
      allowPrivateHosts: [env.siteHost],
      queuePrefix: `wcs-chaos-${name}`,
      logDir: path.join(env.logDir, `chaos-${name}`),
      env: { CRAWL_BATCH_SIZE: '3', LOG_LEVEL: 'warn' },
    });
    return {
      stack,
      db,
      key,
      site,
      async close() {
        await stack.stop();
        await site.close();
        await db.close();
      },
    };
  } catch (err) {
    await site.close();
    await db.close();
    throw err;
  }
}

/**
 * Restarts the stack's worker or API when it exits, as `npm start` or a container runtime would,
 * and lists what crashed: a dependency outage can crash a process (postgres.js writes to a
 * socket it already dropped, porsager/postgres#1154), and the scenario counts on what survives it.
 */
function superviseStack(stack: Stack): { crashes: string[]; stop(): void } {
  const crashes: string[] = [];
  const gone = (p: Stack['api']) => p.child.exitCode !== null || p.child.signalCode !== null;
  // A second apart, as a supervisor backs off: a process started while Postgres is still down exits again.
  const restartable = { worker: 0, API: 0 };
  const timer = setInterval(() => {
    for (const [role, proc, restart] of [
      ['worker', stack.worker, () => stack.restartWorker()],
      ['API', stack.api, () => stack.restartApi()],
    ] as const) {
      if (!gone(proc) || Date.now() < restartable[role]) continue;
      crashes.push(`${role} (exit ${proc.child.exitCode ?? proc.child.signalCode})`);
      restartable[role] = Date.now() + 1_000;
      void restart();
    }
  }, 200);
  return { crashes, stop: () => clearInterval(timer) };
}

/** What a dependency outage scenario adds to its notes: the processes that exited, if any. */
function crashNote(crashes: string[]): string {
  if (crashes.length === 0) return 'no process crashed';
  const counts = new Map<string, number>();
  for (const c of crashes) counts.set(c, (counts.get(c) ?? 0) + 1);
  return `restarted after exiting: ${[...counts].map(([what, n]) => `${what} x${n}`).join(', ')}`;
}

/** `kill -9` of one of two workers mid-crawl; the other finishes the crawl. */
export async function killOneOfTwoWorkers(env: ChaosEnv, size: ChaosSize): Promise<ChaosResult> {
  const h = await harness(env, 'kill-worker', size);
  try {
    await h.stack.addWorker();
    await waitFor('a second worker', async () => (await activityPollerIdentities(env.temporalAddress, 'wcs-chaos-kill-worker-http')).size >= 2, 120_000);
    return await crawlThroughFault('kill -9 of one of two workers', [h.stack.apiUrl], h.db, h.key, h.site, {
      async inject() {
        h.stack.worker.child.kill('SIGKILL');
        await h.stack.worker.exited;
      },
    });
  } finally {
    await h.close();
  }
}

/** The Temporal server stopped and started again (same database file) mid-crawl. */
export async function restartTemporal(env: ChaosEnv, size: ChaosSize, downMs = 5_000): Promise<ChaosResult> {
  const dir = path.join(env.logDir, 'chaos-temporal');
  mkdirSync(dir, { recursive: true });
  const serverOptions = { port: await freeLowPort(), uiPort: await freePort(), dbFilename: path.join(dir, `temporal-${Date.now()}.db`), logFile: path.join(dir, 'temporal.log'), log: env.log };
  let server = await startTemporalDevServer(serverOptions);
  try {
    const h = await harness(env, 'temporal', size, { temporalAddress: server.address });
    const supervisor = superviseStack(h.stack);
    try {
      const result = await crawlThroughFault('Temporal server restarted', [h.stack.apiUrl], h.db, h.key, h.site, {
        async inject() {
          await server.stop();
          await sleep(downMs);
          server = await startTemporalDevServer(serverOptions);
        },
      });
      return { ...result, detail: `${result.detail}; ${crashNote(supervisor.crashes)}` };
    } finally {
      supervisor.stop();
      await h.close();
    }
  } finally {
    await server.stop();
  }
}

/** A Postgres of the scenario's own stopped (`pg_ctl stop -m fast`) and started again mid-crawl. */
export async function restartPostgres(env: ChaosEnv, size: ChaosSize, downMs = 5_000): Promise<ChaosResult> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('initdb and pg_ctl not found: install PostgreSQL server binaries (Debian: postgresql)');
  const pg = await startThrowawayPostgres(bin);
  try {
    await migrateDatabase(pg.url);
    const h = await harness(env, 'postgres', size, { databaseUrl: pg.url });
    const supervisor = superviseStack(h.stack);
    try {
      const result = await crawlThroughFault('Postgres restarted', [h.stack.apiUrl], h.db, h.key, h.site, {
        async inject() {
          await pg.stop();
          await sleep(downMs);
          await pg.start();
        },
      });
      return { ...result, detail: `${result.detail}; ${crashNote(supervisor.crashes)}` };
    } finally {
      supervisor.stop();
      await h.close();
    }
  } finally {
    await pg.destroy();
  }
}

/** The API process killed and started again while clients poll a crawl's status. */
export async function restartApiWhilePolling(env: ChaosEnv, size: ChaosSize, clients = 8): Promise<ChaosResult> {
  const h = await harness(env, 'api', size);
  let polling = true;
  const answers = { ok: 0, failed: 0 };
  try {
    const pollers: Promise<void>[] = [];
    const startPolling = (id: string) => {
      for (let c = 0; c < clients; c++) {
        pollers.push(
          (async () => {
            while (polling) {
              (await crawlStatus(h.stack.apiUrl, h.key, id)) ? answers.ok++ : answers.failed++;
              await sleep(100);
            }
          })(),
        );
      }
    };
    const result = await crawlThroughFault(
      'API restarted while clients poll',
      [h.stack.apiUrl],
      h.db,
      h.key,
      h.site,
      {
        async inject(crawlId) {
          startPolling(crawlId);
          await sleep(500);
          h.stack.api.child.kill('SIGKILL');
          await h.stack.api.exited;
          await h.stack.restartApi();
          await waitFor('the restarted API', async () => (await fetch(`${h.stack.apiUrl}/healthz`)).status === 200, 60_000, h.stack.api.exited);
        },
        // Progress here is the clients being answered again.
        progressed: (_before, now) => now !== undefined,
      },
    );
    polling = false;
    await Promise.all(pollers);
    return { ...result, detail: `${result.detail}; ${clients} clients polling: ${answers.ok} answers, ${answers.failed} refused while the API was down` };
  } finally {
    polling = false;
    await h.close();
  }
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? NaN;

/** A crawl of hostile pages by one team while another team scrapes an ordinary page. */
export async function hostileCrawlBesideScrapes(env: ChaosEnv, crawlLimit = 30): Promise<ChaosResult & { scrapes: { idleP50: number; busyP50: number; failed: number } }> {
  const h = await harness(env, 'hostile', { pages: 1, pageDelayMs: 0 });
  const hostile = await startHostileSite(env.siteHost);
  try {
    const other = await createTeamWithKey(h.db.db, `chaos-other-${Date.now()}`, 1_000_000);
    let n = 0;
    const scrapeOnce = async () => {
      const started = performance.now();
      const response = await fetch(`${h.stack.apiUrl}/v1/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${h.site.url}/small?n=${n++}` }),
      });
      const body = await response.text();
      if (response.status !== 200) env.log(`the other team's scrape answered ${response.status}: ${body.slice(0, 300)}`);
      return { ms: performance.now() - started, ok: response.status === 200 };
    };
    const idle: number[] = [];
    for (let i = 0; i < 10; i++) idle.push((await scrapeOnce()).ms);

    const started = await fetch(`${h.stack.apiUrl}/v1/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: hostile.url, limit: crawlLimit, ignoreSitemap: true, maxConcurrency: 10 }),
    });
    const { id } = (await started.json()) as { id: string };
    const busy: number[] = [];
    let failed = 0;
    let status: Awaited<ReturnType<typeof crawlStatus>>;
    const deadline = Date.now() + 240_000;
    for (;;) {
      const s = await scrapeOnce();
      busy.push(s.ms);
      if (!s.ok) failed++;
      status = await crawlStatus(h.stack.apiUrl, h.key, id);
      if ((status && status.status !== 'scraping' && busy.length >= 10) || Date.now() > deadline) break;
    }
    if (!status || status.status === 'scraping') throw new Error(`hostile crawl ${id} not finished: ${JSON.stringify(status)}`);
    const audit = await auditCrawl(h.db.db, id, status.total);
    const [charges] = await h.db.db.execute<{ n: number }>(sql`select count(*)::int as n from ledger where team_id = ${other.teamId}::uuid and amount < 0`);
    const crawled = await h.db.db.execute<{ url: string; status: string; warning: string | null; links: number }>(
      sql`select url, status, warning, coalesce(jsonb_array_length(links), 0)::int as links from pages where job_id = ${id}::uuid and url not like '%/item/%'`,
    );
    env.log(`hostile pages: ${JSON.stringify(crawled)}`);
    const textOnly = crawled.filter((p) => p.warning?.includes('only its plain text')).length;
    const scrapes = { idleP50: percentile(idle, 50), busyP50: percentile(busy, 50), failed };
    return {
      scenario: 'hostile-page crawl beside another team\'s scrapes',
      pages: status.total,
      ...audit,
      chargedTwice: audit.chargedTwice + Math.max(0, (charges?.n ?? 0) - (idle.length + busy.length - failed)),
      faultMs: 0,
      recoverMs: undefined,
      detail: `crawl ${status.status}, ${textOnly} of ${crawled.length} start and hostile pages cut to plain text by the processing budget; the other team's scrapes: p50 ${scrapes.idleP50.toFixed(0)} ms idle, ${scrapes.busyP50.toFixed(0)} ms during the crawl (${(scrapes.busyP50 / scrapes.idleP50).toFixed(1)}x), ${failed} of ${busy.length} failed`,
      scrapes,
    };
  } finally {
    await hostile.close();
    await h.close();
  }
}
