import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { IllegalStateError } from '@temporalio/common';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { Answer } from '../../closed-loop';
import { floorActivities } from './floor-activities';
import type { floorWorkflow } from './workflows';

/** A running floor peer: `call` runs one floor workflow and answers like an HTTP call. */
export interface TemporalFloor {
  call(): Promise<Answer>;
  close(): Promise<void>;
}

/**
 * The floor under any design in which each scrape is a Temporal workflow, on this machine and
 * this Temporal server: a workflow shaped like our scrape (one workflow task, one local activity)
 * that does nothing, started and awaited by a client sharing its process and connection with
 * the worker, with eager start as the API's scrapes use it. What we measure above it is ours
 * (HTTP, Postgres, fetch, processing); below it nothing can go without leaving Temporal.
 */
export async function startTemporalFloor(address: string): Promise<TemporalFloor> {
  // The bench's output is its tables: only the SDK's warnings and errors. (A runtime made
  // earlier, by a dev server the SDK downloaded, keeps its own logger.)
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch (err) {
    if (!(err instanceof IllegalStateError)) throw err;
  }
  const connection = await NativeConnection.connect({ address });
  const taskQueue = `bench-floor-${randomUUID()}`;
  const worker = await Worker.create({ connection, taskQueue, workflowsPath: path.join(__dirname, 'workflows.ts'), activities: floorActivities, enableNonLocalActivities: false });
  const running = worker.run();
  const client = new Client({ connection });
  let n = 0;
  return {
    async call() {
      const started = performance.now();
      const status = await client.workflow.execute<typeof floorWorkflow>('floorWorkflow', { taskQueue, workflowId: `floor-${n}-${randomUUID()}`, args: [n++], requestEagerStart: true }).then(
        () => 200,
        () => 500,
      );
      return { status, at: started, ms: performance.now() - started, retryAfter: 0 };
    },
    async close() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
