/**
 * `npm run chaos [scenario...]`: runs the chaos scenarios (all when none is named) against a
 * real Temporal, Postgres and Chromium, prints the results table (docs/benchmarks.md,
 * "Chaos suite", holds the last run's) and writes it to data/chaos-results.md. Exits 1 when a page was lost,
 * charged twice or stored without its charge.
 *
 * `npm run chaos -- --cluster [scenario...]`: the cluster scenarios, on the production shape of
 * `npm run cluster` (docs/production.md holds the last run's), written to data/chaos-results-cluster.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connectDatabase } from '../../src/db/client';
import { startCluster } from '../../src/dev/cluster/cluster';
import { ROOT } from '../../src/config/paths';
import { startEnvironment } from '../helpers/environment';
import { cancelAndRetry, killApiReplica, killHttpWorker, restartPostgres as restartClusterPostgres, stopTemporal, type ClusterChaosEnv } from './cluster-scenarios';
import type { ChaosResult } from './crawl-through-fault';
import { hostileCrawlBesideScrapes, killOneOfTwoWorkers, restartApiWhilePolling, restartPostgres, restartTemporal, type ChaosEnv } from './scenarios';

const SIZE = { pages: 300, pageDelayMs: 50 };
const SITE_HOST = '127.0.0.2';

const SCENARIOS: Record<string, (env: ChaosEnv) => Promise<ChaosResult>> = {
  'kill-worker': (env) => killOneOfTwoWorkers(env, SIZE),
  temporal: (env) => restartTemporal(env, SIZE, 10_000),
  postgres: (env) => restartPostgres(env, SIZE, 10_000),
  api: (env) => restartApiWhilePolling(env, SIZE, 16),
  hostile: (env) => hostileCrawlBesideScrapes(env, 40),
};

const CLUSTER_SCENARIOS: Record<string, (env: ClusterChaosEnv) => Promise<ChaosResult>> = {
  'kill-worker': (env) => killHttpWorker(env, SIZE),
  'kill-api': (env) => killApiReplica(env, SIZE, 8),
  temporal: (env) => stopTemporal(env, SIZE, 20_000),
  postgres: (env) => restartClusterPostgres(env, SIZE, 10_000),
  'cancel-retry': (env) => cancelAndRetry(env, SIZE),
};

const seconds = (ms: number | undefined) => (ms === undefined ? '—' : `${(ms / 1000).toFixed(1)} s`);

function table(results: ChaosResult[]): string {
  const rows = results.map(
    (r) => `| ${r.scenario} | ${r.pages} | ${r.stored} | ${r.failed} | **${r.lost}** | **${r.chargedTwice}** | ${r.uncharged} | ${seconds(r.faultMs)} | ${seconds(r.recoverMs)} | ${r.detail} |`,
  );
  return [
    '| scenario | pages | stored | failed | lost | charged twice | uncharged | fault lasted | recovered after | notes |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}

/** Runs the named scenarios (all when none) one after another on one environment. */
async function runAll<E>(scenarios: Record<string, (env: E) => Promise<ChaosResult>>, wanted: string[], env: E, log: (m: string) => void): Promise<ChaosResult[]> {
  const results: ChaosResult[] = [];
  for (const name of wanted.length > 0 ? wanted : Object.keys(scenarios)) {
    log(`scenario ${name}...`);
    const result = await scenarios[name]!(env);
    log(`${name}: ${JSON.stringify(result)}`);
    results.push(result);
  }
  return results;
}

async function devServer(wanted: string[], log: (m: string) => void): Promise<{ results: ChaosResult[]; logDir: string }> {
  const environment = await startEnvironment({ kind: 'chaos', allowPrivateHosts: [], log });
  try {
    const env: ChaosEnv = { databaseUrl: environment.databaseUrl, temporalAddress: environment.temporal.address, chromiumPath: environment.chromiumPath, siteHost: SITE_HOST, logDir: environment.logDir, log };
    return { results: await runAll(SCENARIOS, wanted, env, log), logDir: environment.logDir };
  } finally {
    await environment.stop();
  }
}

async function cluster(wanted: string[], log: (m: string) => void): Promise<{ results: ChaosResult[]; logDir: string }> {
  const dir = path.join(ROOT, 'data', 'chaos-logs', `cluster-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(dir, { recursive: true });
  // The production configuration, but for the sites (loopback) and crawl batches as small as the dev-server suite's.
  const running = await startCluster({ dir, throwaway: true, ui: false, env: { ALLOW_PRIVATE_HOSTS: SITE_HOST, CRAWL_BATCH_SIZE: '3' }, log });
  const interrupted = () => void running.stop().finally(() => process.exit(130));
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  const db = connectDatabase(running.databaseUrl, 2);
  try {
    return { results: await runAll(CLUSTER_SCENARIOS, wanted, { cluster: running, db, siteHost: SITE_HOST, log }, log), logDir: running.logDir };
  } finally {
    await db.close();
    await running.stop();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const onCluster = args.includes('--cluster');
  const wanted = args.filter((a) => a !== '--cluster');
  const known = onCluster ? CLUSTER_SCENARIOS : SCENARIOS;
  const unknown = wanted.filter((w) => !(w in known));
  if (unknown.length > 0) {
    console.error(`unknown scenario(s): ${unknown.join(', ')}; choose from ${Object.keys(known).join(', ')}`);
    process.exit(2);
  }
  const log = (message: string) => console.log(`[chaos] ${message}`);
  const { results, logDir } = onCluster ? await cluster(wanted, log) : await devServer(wanted, log);
  const shape = onCluster ? 'on the cluster of `npm run cluster` (Temporal on Postgres, 2 API replicas, 2 HTTP workers, 1 browser worker)' : 'on the Temporal dev server';
  const report = `${table(results)}\n\n${SIZE.pages}-page crawls (${SIZE.pageDelayMs} ms a page, batches of 3) ${shape}, ${new Date().toISOString()}; logs in ${path.relative(ROOT, logDir)}\n`;
  writeFileSync(path.join(ROOT, 'data', onCluster ? 'chaos-results-cluster.md' : 'chaos-results.md'), report);
  console.log(`\n${report}`);
  if (results.some((r) => r.lost > 0 || r.chargedTwice > 0 || r.uncharged > 0 || (r.clientErrors ?? 0) > 0)) process.exit(1);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
