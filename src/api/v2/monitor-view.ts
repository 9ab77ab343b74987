import { z } from 'zod';
import { runsPerMonth, parseCron } from '../../monitors/cron';
import { estimateCheckCredits } from '../../monitors/estimate';
import { CHECK_STATUSES, PAGE_STATUSES, plansOf } from '../../monitors/monitor-plan';
import type { ScheduleState } from '../../monitors/monitor-schedule';
import { checkPageFields, type CheckPageRow, type CheckRow, type MonitorRow } from '../../monitors/monitor-store';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const later = (a: Date | null | undefined, b: Date | null | undefined) => (a && b ? (a > b ? a : b) : (a ?? b ?? null));

const EMPTY_SUMMARY = { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 };

export const summarySchema = z.object({ totalPages: z.number().int(), same: z.number().int(), changed: z.number().int(), new: z.number().int(), removed: z.number().int(), error: z.number().int() });

export const monitorSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.enum(['active', 'paused', 'deleted']).describe('Whether the Schedule is paused (there, by the API or by an operator in the Temporal UI).'),
    schedule: z.object({ cron: z.string(), timezone: z.string() }),
    nextRunAt: z.string().nullable().describe("The Schedule's next run, from Temporal; null while paused."),
    lastRunAt: z.string().nullable().describe("When the Schedule last ran (its scheduled time, from Temporal), or a later manual check's start."),
    currentCheckId: z.string().nullable(),
    targets: z.array(z.record(z.string(), z.unknown())),
    webhook: z.record(z.string(), z.unknown()).nullable(),
    notification: z.record(z.string(), z.unknown()).nullable(),
    retentionDays: z.number().int(),
    estimatedCreditsPerMonth: z.number().int().nullable(),
    lastCheckSummary: summarySchema.nullable(),
    goal: z.string().nullable(),
    judgeEnabled: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Monitor' });

export const checkSchema = z
  .object({
    id: z.string(),
    monitorId: z.string(),
    status: z.enum(CHECK_STATUSES),
    trigger: z.enum(['scheduled', 'manual']),
    scheduledFor: z.string().nullable(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    estimatedCredits: z.number().int().nullable(),
    reservedCredits: z.null().describe('Credits are charged per page as they are checked, never reserved.'),
    actualCredits: z.number().int().nullable().describe("What the check's pages (and judgments) were charged, from the ledger."),
    billingStatus: z.enum(['not_applicable', 'confirmed']),
    summary: summarySchema,
    targetResults: z.array(z.record(z.string(), z.unknown())),
    notificationStatus: z.record(z.string(), z.unknown()).nullable(),
    error: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'MonitorCheck' });

export const checkPageSchema = z
  .object({
    id: z.string(),
    targetId: z.string(),
    url: z.string(),
    status: z.enum(PAGE_STATUSES),
    previousScrapeId: z.string().nullable(),
    currentScrapeId: z.string().nullable(),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    diff: z.object({ text: z.string().optional(), json: z.unknown().optional() }).nullable().describe('Markdown: the git-style `text` and its parsed `json` ({files}); JSON targets: `json` per field {previous, current}.'),
    snapshot: z.object({ json: z.unknown().optional() }).nullable(),
    judgment: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'MonitorCheckPage' });

/** A monitor as Firecrawl's API shows it; the Schedule's state (Temporal) wins over the row's. */
export function monitorView(row: MonitorRow, schedule: ScheduleState | undefined, checks: { latest?: CheckRow; runningId?: string }, crawlPagesSeen: ReadonlyMap<string, number>) {
  const perCheck = estimateCheckCredits(plansOf(row), crawlPagesSeen);
  return {
    id: row.id,
    name: row.name,
    status: schedule ? (schedule.paused ? 'paused' : 'active') : row.status,
    schedule: { cron: row.cron, timezone: row.timezone },
    nextRunAt: iso(schedule?.nextRunAt),
    // The Schedule's last action (its scheduled time), or a later manual check.
    lastRunAt: iso(later(schedule?.lastRunAt, checks.latest?.trigger === 'manual' ? checks.latest.createdAt : null)),
    currentCheckId: checks.runningId ?? null,
    targets: row.targets,
    webhook: row.webhook ?? null,
    notification: row.notification ?? null,
    retentionDays: row.retentionDays,
    estimatedCreditsPerMonth: perCheck * runsPerMonth(parseCron(row.cron)),
    lastCheckSummary: checks.latest?.summary ?? null,
    goal: row.goal,
    judgeEnabled: row.judgeEnabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function checkView(c: CheckRow) {
  const finished = c.finishedAt !== null;
  return {
    id: c.id,
    monitorId: c.monitorId,
    status: c.status,
    trigger: c.trigger,
    scheduledFor: iso(c.scheduledFor),
    startedAt: iso(c.startedAt),
    finishedAt: iso(c.finishedAt),
    estimatedCredits: c.estimatedCredits,
    reservedCredits: null,
    actualCredits: c.actualCredits,
    billingStatus: finished && (c.actualCredits ?? 0) > 0 ? ('confirmed' as const) : ('not_applicable' as const),
    summary: c.summary ?? EMPTY_SUMMARY,
    targetResults: c.targetResults ?? [],
    notificationStatus: c.notificationStatus ?? null,
    error: c.error,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** A check the API started whose run has not recorded it yet. */
export function queuedCheckView(id: string, monitorId: string, now: Date) {
  return checkView({
    id,
    monitorId,
    teamId: '',
    status: 'queued',
    trigger: 'manual',
    workflowId: '',
    scheduledFor: null,
    startedAt: null,
    finishedAt: null,
    estimatedCredits: null,
    actualCredits: null,
    summary: null,
    targetResults: null,
    notificationStatus: null,
    error: null,
    createdAt: now,
    updatedAt: now,
  });
}

export function checkPageView(p: CheckPageRow) {
  return { ...checkPageFields(p), snapshot: (p.snapshot as { json?: unknown } | null) ?? null, createdAt: p.createdAt.toISOString() };
}
