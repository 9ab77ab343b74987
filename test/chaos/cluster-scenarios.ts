import os from 'node:os';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client';
import { jobs } from '../../src/db/schema';
import { waitFor } from '../../src/dev/child-process';
import { listening, type Cluster, type ClusterMember } from '../../src/dev/cluster/cluster';
import type { ClusterService } from '../../src/dev/cluster/cluster-service';
import { setTeamLimits } from '../../src/limits/team-limits';
import { createTeamWithKey } from '../helpers/accounts';
import { crawlBatchesByWorker } from '../helpers/crawl-workers';
import { activityPollerIdentities } from '../helpers/task-queue-pollers';
import { auditCrawl } from './crawl-audit';
import { startTreeSite, type ChaosSite } from './chaos-site';
import { crawlStatus, crawlThroughFault, sleep, type ChaosResult, type ChaosSize, type CrawlStatus } from './crawl-through-fault';

/** Where the cluster scenarios run: the cluster of `npm run cluster`, its database, a loopback host for sites. */
export interface ClusterChaosEnv {
  cluster: Cluster;
  db: Database;
  /** A loopback host other than 127.0.0.1 for the sites the scenarios serve. */
  siteHost: string;
  log: (message: string) => void;
}

const identity = (pid: number | undefined) => `${pid}@${os.hostname()}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * A team of the scenario's own with credits, its request limits lifted (`wcs limits` does the
 * same): the scenarios' pollers would otherwise meet the deployment's rate limit, which the
 * cluster keeps at its production value.
 */
async function chaosTeam(env: ClusterChaosEnv, name: string): Promise<{ teamId: string; key: string }> {
  const team = await createTeamWithKey(env.db.db, `cluster-chaos-${name}-${Date.now()}`, 1_000_000);
  await setTeamLimits(env.db.db, team.teamId, { requestsPerMinute: 0, keyRequestsPerMinute: 0 });
  return team;
}

/** Runs `body` with a site and a client of the cluster's Temporal, closing both after. */
async function withSite<T>(env: ClusterChaosEnv, size: ChaosSize, failing: number[], body: (site: ChaosSite, temporal: Client) => Promise<T>): Promise<T> {
  const site = await startTreeSite(env.siteHost, size.pages, size.pageDelayMs, failing);
  const connection = await Connection.connect({ address: env.cluster.temporalAddress });
  try {
    return await body(site, new Client({ connection }));
  } finally {
    await connection.close();
    await site.close();
  }
}

/** Restarts of our processes since `before` (the supervisor restarts what exits, as compose's restart policy does). */
function restartsSince(cluster: Cluster, before: Map<string, number>): string {
  const members: ClusterService[] = [...cluster.apis, ...cluster.httpWorkers, ...cluster.browserWorkers, cluster.temporal];
  const restarted = members.filter((m) => m.restarts > (before.get(m.name) ?? 0)).map((m) => `${m.name} x${m.restarts - (before.get(m.name) ?? 0)}`);
  return restarted.length === 0 ? 'no process exited' : `restarted after exiting: ${restarted.join(', ')}`;
}

const restartCounts = (cluster: Cluster) =>
  new Map([...cluster.apis, ...cluster.httpWorkers, ...cluster.browserWorkers, cluster.temporal].map((m) => [m.name, m.restarts] as const));

/** Waits until `service` runs as a new process (after a kill, its supervisor starts one). */
async function newPid(service: ClusterService, oldPid: number | undefined): Promise<number> {
  let pid: number | undefined;
  await waitFor(`${service.name} restarted`, async () => (pid = service.pid) !== undefined && pid !== oldPid, 120_000);
  return pid!;
}

/** `kill -9` of one HTTP worker mid-crawl: the other runs the crawl on; restarted, the killed one polls again. */
export async function killHttpWorker(env: ClusterChaosEnv, size: ChaosSize): Promise<ChaosResult> {
  const { cluster } = env;
  const [victim, survivor] = cluster.httpWorkers as [ClusterMember, ClusterMember];
  const queue = `${cluster.queuePrefix}-http`;
  const { key } = await chaosTeam(env, 'kill-worker');
  return withSite(env, size, [], async (site, temporal) => {
    await waitFor('both HTTP workers polling', async () => (await activityPollerIdentities(cluster.temporalAddress, queue)).size >= 2, 120_000);
    let crawlId = '';
    let killedAt = 0;
    let rejoined: Promise<{ pid: number; afterMs: number }> | undefined;
    const survivorIdentity = identity(survivor.pid);
    const result = await crawlThroughFault('kill -9 of one of the two HTTP workers', cluster.apiUrls, env.db, key, site, {
      async inject(id) {
        crawlId = id;
        const oldPid = victim.pid;
        killedAt = Date.now();
        await victim.kill('SIGKILL');
        rejoined = (async () => {
          const pid = await newPid(victim, oldPid);
          await waitFor(`${victim.name} polling again`, async () => (await activityPollerIdentities(cluster.temporalAddress, queue)).has(identity(pid)), 120_000);
          return { pid, afterMs: Date.now() - killedAt };
        })();
      },
    });
    const back = await rejoined!;
    const after = await crawlBatchesByWorker(temporal, crawlId, killedAt);
    return {
      ...result,
      detail: `${result.detail}; after the kill ${survivor.name} ran ${after.get(survivorIdentity) ?? 0} batches; ${victim.name} restarted and polled again after ${seconds(back.afterMs)}, then ran ${after.get(identity(back.pid)) ?? 0}`,
    };
  });
}

/** What one client met: requests that got no answer or a server error, and refusals (503/429 with Retry-After, waited out). */
interface ClientRecord {
  /** The replica it began on. */
  start: number;
  errors: string[];
  refused: number;
}

interface Clients {
  /** From now on the clients only poll: the scrapes were for the fault, and would starve the crawl on a small machine. */
  stopScraping(): void;
  stop(): Promise<void>;
  records: ClientRecord[];
  answered: number;
  scrapes: number;
}

/**
 * `clients` clients, half beginning on each replica, each polling the crawl and scraping a page
 * in turn (only polling once told to stop scraping). A request that gets no answer or a server
 * error is retried at once on the other replica, where the client then stays; one refused
 * (503 or 429 with Retry-After: the replica's backpressure) is retried there after the wait.
 */
function startClients(cluster: Cluster, key: string, crawlId: string, pageUrl: string, clients: number): Clients {
  let running = true;
  let scraping = true;
  const state: Clients = { records: [], answered: 0, scrapes: 0, stopScraping: () => void (scraping = false), stop: async () => {} };
  const loops = Array.from({ length: clients }, async (_, c) => {
    let replica = c % cluster.apiUrls.length;
    const mine: ClientRecord = { start: replica, errors: [], refused: 0 };
    state.records.push(mine);
    for (let n = 0; running; n++) {
      const scrape = scraping && n % 2 === 1;
      for (;;) {
        const base = cluster.apiUrls[replica]!;
        let response: Response;
        try {
          response = scrape
            ? await fetch(`${base}/v1/scrape`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: `${pageUrl}?c=${c}&n=${n}` }), signal: AbortSignal.timeout(60_000) })
            : await fetch(`${base}/v1/crawl/${crawlId}?limit=1`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
          await response.arrayBuffer();
        } catch (err) {
          mine.errors.push(`no answer (${(err as Error).name})`);
          replica = (replica + 1) % cluster.apiUrls.length;
          continue;
        }
        const retryAfter = Number(response.headers.get('retry-after'));
        if ((response.status === 503 || response.status === 429) && retryAfter > 0) {
          mine.refused++;
          await sleep(Math.min(retryAfter, 2) * 1000);
          continue;
        }
        if (response.status >= 500) {
          mine.errors.push(`HTTP ${response.status}`);
          replica = (replica + 1) % cluster.apiUrls.length;
          continue;
        }
        state.answered++;
        if (scrape && response.status === 200) state.scrapes++;
        break;
      }
      await sleep(250);
    }
  });
  state.stop = async () => {
    running = false;
    await Promise.all(loops);
  };
  return state;
}

/** What became of a team's scrapes. */
interface ScrapeAudit {
  scrapes: number;
  /** Started (their workflow exists) but not finished: lost. */
  unfinished: number;
  /**
   * Rows whose workflow was never started: the API wrote the job and died before starting it, so
   * its client got no answer (and asked again). Nothing ran or was charged; the reconciler marks
   * them failed once they are 5 minutes old.
   */
  neverStarted: number;
  chargedTwice: number;
  uncharged: number;
}

/** The team's scrapes once the running ones have finished (one in flight on a killed replica is finished by a worker). */
async function auditScrapes(db: Database, temporal: Client, teamId: string): Promise<ScrapeAudit> {
  const running = () => db.db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.teamId, teamId), eq(jobs.kind, 'scrape'), eq(jobs.status, 'scraping')));
  const started = async (id: string) => temporal.workflow.getHandle(`scrape-${id}`).describe().then(() => true, (err: unknown) => (err instanceof WorkflowNotFoundError ? false : Promise.reject(err)));
  let neverStarted = 0;
  await waitFor('every started scrape finished', async () => {
    const left = await running();
    const startedLeft = (await Promise.all(left.map((j) => started(j.id)))).filter(Boolean).length;
    neverStarted = left.length - startedLeft;
    return startedLeft === 0;
  }, 120_000).catch(() => undefined);
  const [row] = await db.db.execute<{ scrapes: number; unfinished: number; charged_twice: number; uncharged: number }>(sql`
    select count(*)::int as scrapes,
      count(*) filter (where j.status = 'scraping')::int as unfinished,
      coalesce(sum(greatest(c.n - 1, 0)), 0)::int as charged_twice,
      count(*) filter (where j.status = 'completed' and coalesce(c.n, 0) = 0)::int as uncharged
    from jobs j
    left join (select job_id, count(*)::int as n from ledger where amount < 0 group by job_id) c on c.job_id = j.id
    where j.team_id = ${teamId}::uuid and j.kind = 'scrape'`);
  return { scrapes: row!.scrapes, unfinished: row!.unfinished - neverStarted, neverStarted, chargedTwice: row!.charged_twice, uncharged: row!.uncharged };
}

/**
 * `kill -9` of one API replica while clients poll a crawl and scrape through both: a client on
 * the killed replica sees its request in flight fail and retries on the other, and no error after.
 */
export async function killApiReplica(env: ClusterChaosEnv, size: ChaosSize, clients = 8): Promise<ChaosResult> {
  const { cluster } = env;
  const victim = cluster.apis[0]!;
  const { key, teamId } = await chaosTeam(env, 'kill-api');
  return withSite(env, size, [], async (site, temporal) => {
    let load: Clients | undefined;
    let back: Promise<number> | undefined;
    try {
      const result = await crawlThroughFault('kill -9 of one of the two API replicas while clients poll and scrape', cluster.apiUrls, env.db, key, site, {
        async inject(crawlId) {
          load = startClients(cluster, key, crawlId, `${site.url}/small`, clients);
          await sleep(1_000);
          const oldPid = victim.pid;
          await victim.kill('SIGKILL');
          back = newPid(victim, oldPid);
          // Clients go on scraping through the fault and a while after it, then only poll.
          setTimeout(() => load!.stopScraping(), 10_000);
        },
        // Progress is the clients being answered again, by the other replica.
        progressed: (_before, now) => now !== undefined,
      });
      await load!.stop();
      await back;
      await waitFor(`${victim.name} serving again`, async () => (await fetch(`${victim.url}/healthz`)).status === 200, 120_000);
      const scrapes = await auditScrapes(env.db, temporal, teamId);
      const onVictim = load!.records.filter((r) => r.start === 0);
      const onOther = load!.records.filter((r) => r.start !== 0);
      const errors = (records: ClientRecord[]) => records.map((r) => (r.errors.length ? r.errors.join(' + ') : 'none')).join('; ');
      const refused = load!.records.reduce((n, r) => n + r.refused, 0);
      // Beyond the one request each client had in flight on the killed replica, every error counts as one.
      const extraErrors = onVictim.reduce((n, r) => n + Math.max(0, r.errors.length - 1), 0) + onOther.reduce((n, r) => n + r.errors.length, 0);
      return {
        ...result,
        lost: result.lost + scrapes.unfinished,
        chargedTwice: result.chargedTwice + scrapes.chargedTwice,
        uncharged: result.uncharged + scrapes.uncharged,
        clientErrors: extraErrors,
        detail:
          `${result.detail}; ${clients} clients, ${load!.answered} answers; errors of the clients that began on ${victim.name}: ${errors(onVictim)}; ` +
          `of those on the other replica: ${errors(onOther)}; errors beyond the request in flight: ${extraErrors}; refusals (503/429 with Retry-After, waited out): ${refused}; ` +
          `${scrapes.scrapes} scrapes (${load!.scrapes} answered 200): ${scrapes.unfinished} lost, ${scrapes.chargedTwice} charged twice, ${scrapes.uncharged} uncharged, ${scrapes.neverStarted} never started (the job row written, the replica killed before it started the workflow: unanswered, uncharged, failed by the reconciler after 5 min); ${victim.name} restarted and served again`,
      };
    } finally {
      await load?.stop();
    }
  });
}

/** The Temporal server stopped for `downMs` mid-crawl (`docker compose stop temporal`), then started again. */
export async function stopTemporal(env: ClusterChaosEnv, size: ChaosSize, downMs: number): Promise<ChaosResult> {
  const { cluster } = env;
  const { key } = await chaosTeam(env, 'temporal');
  const port = Number(cluster.temporalAddress.split(':')[1]);
  return withSite(env, size, [], async (site) => {
    const before = restartCounts(cluster);
    const result = await crawlThroughFault(`Temporal server stopped for ${seconds(downMs)}`, cluster.apiUrls, env.db, key, site, {
      async inject() {
        await cluster.temporal.stop();
        await sleep(downMs);
        cluster.temporal.start();
        await waitFor('the Temporal frontend', () => listening(port), 120_000);
      },
    });
    return { ...result, detail: `${result.detail}; ${restartsSince(cluster, before)}` };
  });
}

/** Postgres (the service's and Temporal's databases) stopped (`pg_ctl stop -m fast`) and started again mid-crawl. */
export async function restartPostgres(env: ClusterChaosEnv, size: ChaosSize, downMs: number): Promise<ChaosResult> {
  const { cluster } = env;
  const { key } = await chaosTeam(env, 'postgres');
  return withSite(env, size, [], async (site) => {
    const before = restartCounts(cluster);
    const result = await crawlThroughFault(`Postgres (service and Temporal) down for ${seconds(downMs)}`, cluster.apiUrls, env.db, key, site, {
      async inject() {
        await cluster.postgres.stop();
        await sleep(downMs);
        await cluster.postgres.start();
      },
    });
    return { ...result, detail: `${result.detail}; ${restartsSince(cluster, before)}` };
  });
}

async function call(url: string, key: string, method = 'GET', body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/**
 * A crawl started on one replica and polled on both, cancelled on the other once some pages
 * have failed, then (its site healed) retried there: the retry fetches the failed pages and the
 * pages the cancel left unfetched, none twice.
 */
export async function cancelAndRetry(env: ClusterChaosEnv, size: ChaosSize): Promise<ChaosResult> {
  const { cluster } = env;
  const [a, b] = cluster.apiUrls as [string, string];
  const { key } = await chaosTeam(env, 'cancel-retry');
  // Pages 1 and 2 (depth 1) fail until healed: their subtrees are found only once they succeed.
  const failing = [1, 2];
  return withSite(env, size, failing, async (site) => {
    const started = await call(`${a}/v1/crawl`, key, 'POST', { url: site.url, limit: site.pages, maxDepth: 50, ignoreSitemap: true, maxConcurrency: 4 });
    if (started.status !== 200) throw new Error(`POST /v1/crawl answered ${started.status}: ${JSON.stringify(started.body)}`);
    const id = started.body.id as string;
    let polls = 0;
    let status: CrawlStatus | undefined;
    await waitFor(
      'the failing pages failed and some pages stored, polled on both replicas',
      async () => {
        status = await crawlStatus(polls++ % 2 === 0 ? a : b, key, id);
        return status !== undefined && (status.failed ?? 0) >= failing.length && status.completed >= size.pages / 10;
      },
      180_000,
    );
    const cancelledAt = Date.now();
    const cancelled = await call(`${b}/v1/crawl/${id}`, key, 'DELETE');
    if (cancelled.body?.status !== 'cancelled') throw new Error(`DELETE on the other replica answered ${cancelled.status}: ${JSON.stringify(cancelled.body)}`);
    // Cancelled for both replicas, and nothing stored after.
    let atCancel: CrawlStatus | undefined;
    await waitFor('the cancel seen on the first replica, the crawl still', async () => {
      const now = await crawlStatus(a, key, id);
      const still = now?.status === 'cancelled' && now.completed === atCancel?.completed;
      atCancel = now;
      if (!still) await sleep(1_500);
      return still;
    }, 60_000);
    site.heal();
    const retry = await call(`${b}/v1/crawl/${id}/retry`, key, 'POST', {});
    const retriedAt = Date.now();
    let recoverMs: number | undefined;
    let end: CrawlStatus | undefined;
    await waitFor('the retried crawl to end', async () => {
      end = await crawlStatus(a, key, id);
      if (recoverMs === undefined && end && end.completed > atCancel!.completed) recoverMs = Date.now() - retriedAt;
      return end !== undefined && end.status !== 'scraping';
    }, 240_000);
    const audit = await auditCrawl(env.db.db, id, site.pages);
    return {
      scenario: 'crawl started on one replica, cancelled and retried on the other',
      pages: site.pages,
      ...audit,
      faultMs: retriedAt - cancelledAt,
      recoverMs,
      detail: `cancelled at ${atCancel!.completed} stored and ${atCancel!.failed ?? 0} failed; the retry answered ${retry.status} ${JSON.stringify(retry.body)}; crawl ${end!.status} with ${end!.completed} stored`,
    };
  });
}
