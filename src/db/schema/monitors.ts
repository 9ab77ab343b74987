import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { CheckStatus, CheckSummary, CheckTrigger, MonitorNotification, MonitorWebhook, PageDiff, PageJudgment, PageStatus, StoredTargetPlan } from '../monitor-types';
import { teams } from './accounts';
import { jobs } from './jobs';

/**
 * A monitor: what to watch and how often. Its Temporal Schedule (`<queue prefix>-monitor-<id>`)
 * holds the timing and the paused state; this row holds what a check needs.
 */
export const monitors = pgTable(
  'monitors',
  {
    id: uuid('id').primaryKey(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** As last set through the API; an operator may pause the Schedule itself, which wins. */
    status: text('status').$type<'active' | 'paused'>().notNull().default('active'),
    /** The five-field cron the Schedule runs on (a `text` schedule is stored as its cron). */
    cron: text('cron').notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    /** The targets as the client gave them, each with its id: what the API answers with. */
    targets: jsonb('targets').$type<Record<string, unknown>[]>().notNull(),
    /** How each target is checked, in the workflows' own options. */
    plans: jsonb('plans').$type<StoredTargetPlan[]>().notNull(),
    webhook: jsonb('webhook').$type<MonitorWebhook>(),
    notification: jsonb('notification').$type<MonitorNotification>(),
    retentionDays: integer('retention_days').notNull(),
    goal: text('goal'),
    judgeEnabled: boolean('judge_enabled').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('monitors_team_idx').on(t.teamId, t.createdAt)],
);

/** One run of a monitor: one workflow run, started by the Schedule or by POST /v2/monitor/{id}/run. */
export const monitorChecks = pgTable(
  'monitor_checks',
  {
    id: uuid('id').primaryKey(),
    monitorId: uuid('monitor_id')
      .notNull()
      .references(() => monitors.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').notNull(),
    status: text('status').$type<CheckStatus>().notNull(),
    trigger: text('trigger').$type<CheckTrigger>().notNull(),
    /** The run that does this check; an overlapping check whose run is gone is not waited for. */
    workflowId: text('workflow_id').notNull(),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    estimatedCredits: integer('estimated_credits'),
    actualCredits: integer('actual_credits'),
    summary: jsonb('summary').$type<CheckSummary>(),
    targetResults: jsonb('target_results').$type<Record<string, unknown>[]>(),
    notificationStatus: jsonb('notification_status').$type<Record<string, unknown>>(),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('monitor_checks_monitor_idx').on(t.monitorId, t.createdAt),
    /** At most one check of a monitor runs at a time: a second one is recorded as skipped_overlap. */
    uniqueIndex('monitor_checks_running_idx').on(t.monitorId).where(sql`${t.status} = 'running'`),
  ],
);

/** One page of a check, compared with the monitor's previous snapshot of it. */
export const monitorCheckPages = pgTable(
  'monitor_check_pages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    checkId: uuid('check_id')
      .notNull()
      .references(() => monitorChecks.id, { onDelete: 'cascade' }),
    targetId: text('target_id').notNull(),
    urlKey: text('url_key').notNull(),
    url: text('url').notNull(),
    status: text('status').$type<PageStatus>().notNull(),
    /** The job whose page (or search) this is; its charges are the check's. */
    jobId: uuid('job_id'),
    /** The stored page this check scraped (`currentScrapeId`), and the snapshot it was compared with. */
    pageId: uuid('page_id'),
    previousPageId: uuid('previous_page_id'),
    statusCode: integer('status_code'),
    error: text('error'),
    diff: jsonb('diff').$type<PageDiff>(),
    /** The json extraction of this copy, when the target asked for JSON. */
    snapshot: jsonb('snapshot').$type<unknown>(),
    judgment: jsonb('judgment').$type<PageJudgment>(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('monitor_check_pages_key_idx').on(t.checkId, t.targetId, t.urlKey), index('monitor_check_pages_status_idx').on(t.checkId, t.status)],
);

/**
 * The newest copy of each page (or search result) a monitor's target has seen: what the next
 * check compares with. A page no longer found by a crawl loses its row (it was `removed`).
 */
export const monitorSnapshots = pgTable(
  'monitor_snapshots',
  {
    monitorId: uuid('monitor_id')
      .notNull()
      .references(() => monitors.id, { onDelete: 'cascade' }),
    targetId: text('target_id').notNull(),
    urlKey: text('url_key').notNull(),
    url: text('url').notNull(),
    /** The stored page; null for a search result (only its URL is remembered). */
    pageId: uuid('page_id'),
    /** The check that last saw it. */
    checkId: uuid('check_id').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.monitorId, t.targetId, t.urlKey] }), index('monitor_snapshots_page_idx').on(t.pageId)],
);

/** The scrape, crawl and search jobs a check ran: retention and deletion remove them with it. */
export const monitorJobs = pgTable(
  'monitor_jobs',
  {
    jobId: uuid('job_id')
      .primaryKey()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    monitorId: uuid('monitor_id').notNull(),
    /** Null once the check aged out while a page of the job is still a snapshot. */
    checkId: uuid('check_id').references(() => monitorChecks.id, { onDelete: 'set null' }),
    targetId: text('target_id').notNull(),
  },
  (t) => [index('monitor_jobs_monitor_idx').on(t.monitorId), index('monitor_jobs_check_idx').on(t.checkId)],
);
