import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';

const { TaskQueueType } = temporal.api.enums.v1;
/** The kinds of task a queue holds, as DescribeTaskQueue names them. */
export const QUEUE_TYPES = { workflow: TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW, activity: TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY } as const;
export type QueueType = keyof typeof QUEUE_TYPES;

/** What waits in one task queue for a worker, as Temporal approximates it. */
export interface Backlog {
  /** Tasks waiting. */
  count: number;
  /** Milliseconds the oldest of them has waited; 0 when none waits. */
  ageMs: number;
}

/** One read of a task queue's backlog (DescribeTaskQueue with its stats). */
export async function readBacklog(client: Client, namespace: string, queue: string, type: QueueType): Promise<Backlog> {
  const answer = await client.workflowService.describeTaskQueue({ namespace, taskQueue: { name: queue }, taskQueueType: QUEUE_TYPES[type], reportStats: true });
  const age = answer.stats?.approximateBacklogAge;
  return {
    count: Number(answer.stats?.approximateBacklogCount ?? 0),
    ageMs: age ? Number(age.seconds ?? 0) * 1000 + Math.round((age.nanos ?? 0) / 1e6) : 0,
  };
}

/** How often an API replica re-reads the scrape queue's backlog. */
const READ_INTERVAL_MS = 1_000;

/**
 * The scrape task queue's workflow backlog, re-read every second in the background, so that a
 * request can be told at once how long it would wait for a worker (ScrapeAdmission). Temporal is
 * the queue; this only reads how long its line is.
 */
export class QueueBacklog {
  private last: Backlog = { count: 0, ageMs: 0 };
  private readonly timer: NodeJS.Timeout;
  private reading = false;

  constructor(
    private readonly client: Client,
    private readonly namespace: string,
    private readonly queue: string,
    private readonly logger: Logger,
  ) {
    this.timer = setInterval(() => void this.read(), READ_INTERVAL_MS);
    this.timer.unref();
    void this.read();
  }

  /** The backlog at the last read (at most about a second old). */
  get current(): Backlog {
    return this.last;
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async read(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      this.last = await readBacklog(this.client, this.namespace, this.queue, 'workflow');
    } catch (err) {
      // Temporal is unreachable: starts fail with their own 503 meanwhile; an empty line admits.
      this.last = { count: 0, ageMs: 0 };
      this.logger.debug({ err }, "could not read the scrape queue's backlog");
    } finally {
      this.reading = false;
    }
  }
}
