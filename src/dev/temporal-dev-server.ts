import { mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { SEARCH_ATTRIBUTES, searchAttributeFlags } from '../temporal/search-attributes';
import { startProcess, waitFor } from './child-process';
import { CACHE_DIR } from '../config/paths';
import { findTemporalCli } from './temporal-cli';

export interface TemporalServerOptions {
  port: number;
  uiPort: number;
  /** SQLite file for state that survives restarts; in-memory when absent. */
  dbFilename?: string;
  /** `--dynamic-config-value` entries, e.g. `limit.historyCount.suggestContinueAsNew: 200`. */
  dynamicConfig?: Record<string, string | number | boolean>;
  /** Where the server's own log goes. */
  logFile: string;
  log: (message: string) => void;
}

export interface TemporalServer {
  address: string;
  uiUrl: string;
  stop(): Promise<void>;
}

async function serving(address: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1_000 });
  try {
    await connection.workflowService.describeNamespace({ namespace: 'default' });
    return true;
  } finally {
    await connection.close();
  }
}

/**
 * Dynamic config every dev server gets. The dev server has one history shard, and a shard reads
 * its transfer queue (the tasks that hand a new workflow task or activity task to matching) at
 * most `transferProcessorMaxPollRPS` times a second, 20 by default: every workflow start then
 * waited up to 50 ms (25 on average) before a worker could see it, and one shard could start no
 * more than about 20 scrapes a second one at a time. A production cluster spreads this over
 * hundreds of shards; deploy/temporal/dynamicconfig.yaml raises it there too.
 */
const DEV_SERVER_DYNAMIC_CONFIG: Record<string, number | boolean> = {
  'history.transferProcessorMaxPollRPS': 1_000,
  // Scrapes start eagerly (EAGER_SCRAPES); the server's default, set as deploy/temporal/dynamicconfig.yaml sets it.
  'system.enableEagerWorkflowStart': true,
  // Task-queue fairness: the team is each workflow's fairness key (src/limits/team-priority.ts),
  // so a backlogged queue serves teams in turn; deploy/temporal/dynamicconfig.yaml sets the same.
  'matching.enableFairness': true,
  // One partition per queue on a one-process server: fairness and priority are kept per
  // partition, and a single one orders the whole queue.
  'matching.numTaskqueueReadPartitions': 1,
  'matching.numTaskqueueWritePartitions': 1,
};

/**
 * SQLite settings for a dev server that keeps its state in a file (`npm start`). SQLite's
 * defaults (a rollback journal, a full sync on every commit) made each workflow start and task
 * completion wait for several fsyncs: a scrape took twice as long and the server twice the CPU
 * as in memory. With a write-ahead log synced at checkpoints, a killed process still loses no
 * committed state; only an operating-system crash or power cut may lose the last commits.
 */
const SQLITE_FILE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'];

/** Starts a Temporal dev server (with Web UI and our search attributes) and waits until it serves. */
export async function startTemporalDevServer(o: TemporalServerOptions): Promise<TemporalServer> {
  const address = `127.0.0.1:${o.port}`;
  const uiUrl = `http://127.0.0.1:${o.uiPort}`;
  const dynamic = Object.entries({ ...DEV_SERVER_DYNAMIC_CONFIG, ...o.dynamicConfig }).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  const extraArgs = [
    ...dynamic.flatMap((d) => ['--dynamic-config-value', d]),
    ...(o.dbFilename ? SQLITE_FILE_PRAGMAS.flatMap((p) => ['--sqlite-pragma', p]) : []),
  ];
  const binary = findTemporalCli(o.log);

  if (!binary) {
    o.log('downloading the Temporal CLI through @temporalio/testing...');
    const env = await TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'cached-download', downloadDir: path.join(CACHE_DIR, 'temporal-download') },
        ip: '127.0.0.1',
        port: o.port,
        ui: true,
        uiPort: o.uiPort,
        ...(o.dbFilename && { dbFilename: o.dbFilename }),
        searchAttributes: Object.values(SEARCH_ATTRIBUTES),
        extraArgs,
      },
    });
    return { address: env.address, uiUrl, stop: () => env.teardown() };
  }

  if (o.dbFilename) mkdirSync(path.dirname(o.dbFilename), { recursive: true });
  mkdirSync(path.dirname(o.logFile), { recursive: true });
  const logFd = openSync(o.logFile, 'a');
  const args = [
    'server', 'start-dev',
    '--ip', '127.0.0.1',
    '--port', String(o.port),
    '--ui-port', String(o.uiPort),
    '--log-level', 'warn',
    ...(o.dbFilename ? ['--db-filename', o.dbFilename] : []),
    ...searchAttributeFlags().flatMap((s) => ['--search-attribute', s]),
    ...extraArgs,
  ];
  const server = startProcess('temporal', binary, args, { stdio: ['ignore', logFd, logFd] });
  await waitFor(`Temporal dev server (log: ${o.logFile})`, () => serving(address), 60_000, server.exited);
  return { address, uiUrl, stop: () => server.stop() };
}
