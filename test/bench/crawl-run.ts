import { Client, Connection } from '@temporalio/client';
import type { Environment } from '../helpers/environment';
import { cpuMsPer, cpuSeconds, rssMb, sampleRss, stackCpuGroups } from './measure';

/**
 * The API and worker settings a crawl bench at `concurrency` runs with: the bench site is one
 * host and the bench team one team, so the per-host and per-team page limits (10 and 16 by
 * default) would otherwise be what a crawl at 50 measures, not the service's speed.
 */
export function crawlBenchEnv(concurrency: number): Record<string, string> {
  return { CRAWL_HOST_CONCURRENCY: String(concurrency), TEAM_PAGES_IN_FLIGHT: String(concurrency) };
}

export interface ApiCrawlResult {
  pages: number;
  failed: number;
  ms: number;
  peakRssMb: number;
  /** The worker's RSS at each status poll, against the pages stored by then. */
  progress: { pages: number; rssMb: number }[];
  runs: number;
  historyEvents: number;
  maxRunEvents: number;
  /** CPU milliseconds per stored page, by process: where the machine's time went. */
  cpuMsPerPage: Record<string, number>;
}

/**
 * Crawls through the API of a running environment and measures what the issue asks: pages/s
 * from submission to completion, the worker's RSS, and Temporal history events over all runs.
 */
export async function apiCrawl(env: Environment, body: Record<string, unknown>): Promise<ApiCrawlResult> {
  const call = async (path: string, payload?: unknown) => {
    const response = await fetch(`${env.stack.apiUrl}${path}`, {
      method: payload ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${env.team.key}`, 'content-type': 'application/json' },
      ...(payload !== undefined && { body: JSON.stringify(payload) }),
    });
    return (await response.json()) as any;
  };
  const workerPid = env.stack.worker.child.pid!;
  const cpuGroups = stackCpuGroups(env);
  const cpuBefore = cpuSeconds(cpuGroups);
  const rss = sampleRss(workerPid);
  const started = performance.now();
  const { id } = await call('/v1/crawl', body);
  const progress: ApiCrawlResult['progress'] = [];
  let status;
  do {
    await new Promise((r) => setTimeout(r, 250));
    status = await call(`/v1/crawl/${id}?limit=1`);
    progress.push({ pages: status.completed, rssMb: rssMb(workerPid) });
  } while (status.status === 'scraping');
  const ms = performance.now() - started;
  const { peakMb } = rss.stop();
  const cpuAfter = cpuSeconds(cpuGroups);
  const cpuMsPerPage = cpuMsPer(status.completed, cpuBefore, cpuAfter);

  const client = new Client({ connection: await Connection.connect({ address: env.temporal.address }) });
  let runs = 0;
  let events = 0;
  let maxRunEvents = 0;
  try {
    // Visibility lags a little behind the last continue-as-new.
    await new Promise((r) => setTimeout(r, 2_000));
    for await (const run of client.workflow.list({ query: `WorkflowId = 'crawl-${id}'` })) {
      const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
      const n = history.events?.length ?? 0;
      runs++;
      events += n;
      maxRunEvents = Math.max(maxRunEvents, n);
    }
  } finally {
    await client.connection.close();
  }
  return { pages: status.completed, failed: status.failed, ms, peakRssMb: peakMb, progress, runs, historyEvents: events, maxRunEvents, cpuMsPerPage };
}
