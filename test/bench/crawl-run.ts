import { Client, Connection } from '@temporalio/client';
import type { Environment } from '../helpers/environment';
import { cpuSeconds, sampleRss } from './measure';

export interface ApiCrawlResult {
  pages: number;
  failed: number;
  ms: number;
  peakRssMb: number;
  rssSamples: number[];
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
  const apiPid = env.stack.api.child.pid!;
  const cpuGroups = {
    worker: (pid: number) => pid === workerPid,
    postgres: (_: number, comm: string) => comm === 'postgres',
    temporal: (_: number, comm: string) => comm === 'temporal',
    api: (pid: number) => pid === apiPid,
    'bench (site server)': (pid: number) => pid === process.pid,
  };
  const cpuBefore = cpuSeconds(cpuGroups);
  const rss = sampleRss(workerPid);
  const started = performance.now();
  const { id } = await call('/v1/crawl', body);
  let status;
  do {
    await new Promise((r) => setTimeout(r, 250));
    status = await call(`/v1/crawl/${id}?limit=1`);
  } while (status.status === 'scraping');
  const ms = performance.now() - started;
  const { peakMb, samples } = rss.stop();
  const cpuAfter = cpuSeconds(cpuGroups);
  const cpuMsPerPage = Object.fromEntries(
    Object.keys(cpuGroups).map((g) => [g, ((cpuAfter[g]! - cpuBefore[g]!) * 1000) / Math.max(1, status.completed)]),
  );

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
  return { pages: status.completed, failed: status.failed, ms, peakRssMb: peakMb, rssSamples: samples, runs, historyEvents: events, maxRunEvents, cpuMsPerPage };
}
