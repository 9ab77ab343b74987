import type { Client } from '@temporalio/client';
import { sql } from 'drizzle-orm';
import { Gauge } from 'prom-client';
import type { Db } from '../db/client';
import { QUEUE_TYPES, readBacklog, type QueueType } from '../temporal/queue-backlog';
import { METRIC_PREFIX, metrics } from './registry';


const backlog = new Gauge({
  name: `${METRIC_PREFIX}task_queue_backlog`,
  help: "Tasks waiting for a worker, per task queue and type (Temporal's approximate backlog count).",
  labelNames: ['queue', 'type'] as const,
  registers: [metrics],
});

const backlogAge = new Gauge({
  name: `${METRIC_PREFIX}task_queue_backlog_age_seconds`,
  help: 'Age of the oldest task waiting, per task queue and type.',
  labelNames: ['queue', 'type'] as const,
  registers: [metrics],
});

const jobsInFlight = new Gauge({
  name: `${METRIC_PREFIX}jobs_in_flight`,
  help: 'Jobs not yet finished (status scraping), per team and kind.',
  labelNames: ['team', 'kind'] as const,
  registers: [metrics],
});

const pagesInFlight = new Gauge({
  name: `${METRIC_PREFIX}pages_in_flight`,
  help: "Crawl and batch pages being fetched right now, per team.",
  labelNames: ['team'] as const,
  registers: [metrics],
});

/** What the backlog gauges are read from; the API's own. */
export interface BacklogSources {
  /** Where jobs and pages in flight are counted. */
  db: Db;
  /** Asked for each queue's backlog. */
  temporal: Client;
  /** Temporal namespace of the queues. */
  namespace: string;
  /** Task queues to report. */
  queues: string[];
}

/**
 * Sets the gauges that are read from Temporal and Postgres rather than counted, right before a
 * scrape of /metrics. A source that does not answer leaves its gauges as they were: an outage
 * must not make /metrics itself fail.
 */
export async function refreshBacklogGauges(s: BacklogSources): Promise<void> {
  const queueStats = s.queues.flatMap((queue) =>
    (Object.keys(QUEUE_TYPES) as QueueType[]).map(async (type) => {
      const { count, ageMs } = await readBacklog(s.temporal, s.namespace, queue, type);
      const labels = { queue, type };
      backlog.set(labels, count);
      backlogAge.set(labels, ageMs / 1000);
    }),
  );
  const teamWork = async () => {
    const jobs = await s.db.execute<{ team: string; kind: string; n: number }>(
      sql`select team_id::text as team, kind, count(*)::int as n from jobs where status = 'scraping' group by 1, 2`,
    );
    jobsInFlight.reset();
    for (const row of jobs) jobsInFlight.set({ team: row.team, kind: row.kind }, row.n);
    const pages = await s.db.execute<{ team: string; n: number }>(
      sql`select j.team_id::text as team, count(*)::int as n from pages p join jobs j on j.id = p.job_id where p.status = 'scraping' and j.status = 'scraping' group by 1`,
    );
    pagesInFlight.reset();
    for (const row of pages) pagesInFlight.set({ team: row.team }, row.n);
  };
  await Promise.allSettled([...queueStats, teamWork()]);
}
