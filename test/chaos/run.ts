/**
 * `npm run chaos [scenario...]`: runs the chaos scenarios (all when none is named) against a
 * real Temporal, Postgres and Chromium, prints the results table (docs/benchmarks.md,
 * "Chaos suite", holds the last run's) and writes it to data/chaos-results.md. Exits 1 when a page was lost,
 * charged twice or stored without its charge.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../src/config/paths';
import { startEnvironment } from '../helpers/environment';
import { hostileCrawlBesideScrapes, killOneOfTwoWorkers, restartApiWhilePolling, restartPostgres, restartTemporal, type ChaosEnv, type ChaosResult } from './scenarios';

const SIZE = { pages: 300, pageDelayMs: 50 };
const SITE_HOST = '127.0.0.2';

const SCENARIOS: Record<string, (env: ChaosEnv) => Promise<ChaosResult>> = {
  'kill-worker': (env) => killOneOfTwoWorkers(env, SIZE),
  temporal: (env) => restartTemporal(env, SIZE, 10_000),
  postgres: (env) => restartPostgres(env, SIZE, 10_000),
  api: (env) => restartApiWhilePolling(env, SIZE, 16),
  hostile: (env) => hostileCrawlBesideScrapes(env, 40),
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

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !(w in SCENARIOS));
  if (unknown.length > 0) {
    console.error(`unknown scenario(s): ${unknown.join(', ')}; choose from ${Object.keys(SCENARIOS).join(', ')}`);
    process.exit(2);
  }
  const log = (message: string) => console.log(`[chaos] ${message}`);
  const environment = await startEnvironment({ kind: 'chaos', allowPrivateHosts: [], log });
  const results: ChaosResult[] = [];
  try {
    const env: ChaosEnv = { databaseUrl: environment.databaseUrl, temporalAddress: environment.temporal.address, chromiumPath: environment.chromiumPath, siteHost: SITE_HOST, logDir: environment.logDir, log };
    for (const name of wanted.length > 0 ? wanted : Object.keys(SCENARIOS)) {
      log(`scenario ${name}...`);
      const result = await SCENARIOS[name]!(env);
      log(`${name}: ${JSON.stringify(result)}`);
      results.push(result);
    }
  } finally {
    await environment.stop();
  }
  const report = `${table(results)}\n\n${SIZE.pages}-page crawls (${SIZE.pageDelayMs} ms a page, batches of 3), ${new Date().toISOString()}; logs in ${path.relative(ROOT, environment.logDir)}\n`;
  writeFileSync(path.join(ROOT, 'data', 'chaos-results.md'), report);
  console.log(`\n${report}`);
  if (results.some((r) => r.lost > 0 || r.chargedTwice > 0 || r.uncharged > 0)) process.exit(1);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
