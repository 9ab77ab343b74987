import { temporal } from '@temporalio/proto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { AppError } from '../../errors';
import type { ApiDeps } from '../api-deps';
import { OUTAGE_RETRY_AFTER_SECONDS } from '../../startup/dependency-outage';
import type { RouteTable } from '../route';

const { TaskQueueType } = temporal.api.enums.v1;
const CHECK_TIMEOUT_MS = 3_000;

type Check = { ok: boolean; detail?: string };

async function check(fn: () => Promise<string | void>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const detail = await Promise.race([
      fn(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, ...(detail && { detail }) };
  } catch (err) {
    return { ok: false, detail: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'get',
    path: '/healthz',
    tag: 'Operations',
    summary: 'The API process is up',
    auth: false,
    responses: { 200: { description: 'Alive', schema: z.object({ status: z.literal('ok') }) } },
    handler: async (ctx) => {
      ctx.body = { status: 'ok' };
    },
  });

  routes.add({
    method: 'get',
    path: '/readyz',
    tag: 'Operations',
    summary: 'Postgres, Temporal and workers on every task queue are reachable',
    auth: false,
    responses: {
      200: { description: 'Ready', schema: z.object({ status: z.literal('ready'), checks: z.record(z.string(), z.object({ ok: z.boolean(), detail: z.string().optional() })) }) },
      503: { description: 'Not ready (SERVICE_UNAVAILABLE, with Retry-After); `details` names each failing check' },
    },
    handler: async (ctx) => {
      const service = deps.temporal.workflowService;
      const pollers = (queue: string, type: number) => async () => {
        const answer = await service.describeTaskQueue({ namespace: deps.config.TEMPORAL_NAMESPACE, taskQueue: { name: queue }, taskQueueType: type });
        const count = answer.pollers?.length ?? 0;
        if (count === 0) throw new Error(`no worker is polling ${queue}`);
        return `${count} poller(s)`;
      };
      const { http, browser, scrape } = deps.config.taskQueues;
      const { scrapeWorker } = deps;
      // A new replica is not ready before its own scrape worker first runs; one that is building
      // it again (Temporal went away) still serves, its scrapes going through the queue.
      const ownScrapeWorker = async (): Promise<string> => {
        if (!scrapeWorker?.hasRun) throw new Error("this API's own scrape worker is not running yet");
        return scrapeWorker.eagerClient ? 'running' : 'restarting: scrapes go through the queue meanwhile';
      };
      const entries = await Promise.all(
        Object.entries({
          postgres: async () => void (await deps.db.execute(sql`select 1`)),
          temporal: async () => void (await service.getSystemInfo({})),
          [`${http}:workflows`]: pollers(http, TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW),
          [`${http}:activities`]: pollers(http, TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY),
          [`${browser}:activities`]: pollers(browser, TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY),
          [`${scrape}:workflows`]: pollers(scrape, TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW),
          [`${scrape}:activities`]: pollers(scrape, TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY),
          ...(scrapeWorker && { [`${scrape}:api-worker`]: ownScrapeWorker }),
        }).map(async ([name, fn]) => [name, await check(fn)] as const),
      );
      const checks = Object.fromEntries(entries);
      const failing = entries.filter(([, c]) => !c.ok);
      if (failing.length === 0) {
        ctx.body = { status: 'ready', checks };
        return;
      }
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        `Not ready: ${failing.map(([name]) => name).join(', ')}`,
        failing.map(([name, c]) => ({ path: name, message: c.detail ?? 'failed' })),
        { retryAfterSeconds: OUTAGE_RETRY_AFTER_SECONDS },
      );
    },
  });
}
