import { ScheduleNotFoundError, ScheduleOverlapPolicy, type Client, type ScheduleDescription, type ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import { monitorCheckWorkflow } from '../../workflows';
import type { Config } from '../config/env';
import { SEARCH_ATTRIBUTES } from '../temporal/search-attributes';
import type { TargetPlan } from './monitor-plan';

/** What a monitor's Schedule is made from. */
export interface MonitorScheduleSpec {
  monitorId: string;
  teamId: string;
  name: string;
  cron: string;
  timezone: string;
  plans: readonly TargetPlan[];
  paused: boolean;
}

/**
 * A monitor's Schedule id: the queue prefix keeps deployments sharing a Temporal namespace apart
 * (a Schedule starts its checks on that deployment's queue).
 */
export function monitorScheduleId(config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>, monitorId: string): string {
  return `${config.TEMPORAL_TASK_QUEUE_PREFIX}-monitor-${monitorId}`;
}

/** Workflow id of a check: Temporal appends the scheduled time to a scheduled one's. */
export function checkWorkflowIdPrefix(monitorId: string): string {
  return `monitor-${monitorId}`;
}

/** One line per target, for the Temporal UI. */
export function describeTargets(plans: readonly TargetPlan[]): string[] {
  return plans.map((p) => {
    if (p.type === 'scrape') return `scrape ${p.urls.length === 1 ? p.urls[0] : `${p.urls[0]} and ${p.urls.length - 1} more`}`;
    if (p.type === 'crawl') return `crawl ${p.url}`;
    return `search ${p.queries.map((q) => JSON.stringify(q)).join(', ')}`;
  });
}

function actionOf(config: Config, s: MonitorScheduleSpec): ScheduleOptionsStartWorkflowAction<typeof monitorCheckWorkflow> {
  return {
    type: 'startWorkflow',
    workflowType: monitorCheckWorkflow,
    workflowId: checkWorkflowIdPrefix(s.monitorId),
    taskQueue: config.taskQueues.http,
    args: [{ monitorId: s.monitorId, trigger: 'scheduled' }],
    // Name, team and targets are on every check the Schedule starts, readable in the Temporal UI.
    staticSummary: `Monitor "${s.name.slice(0, 100)}": ${describeTargets(s.plans).join('; ').slice(0, 300)}`,
    memo: { monitor: s.name, teamId: s.teamId, targets: describeTargets(s.plans) },
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.teamId, value: s.teamId },
      { key: SEARCH_ATTRIBUTES.monitorId, value: s.monitorId },
    ],
  };
}

/**
 * Every run the Schedule would start does start (ALLOW_ALL): the check itself finds an earlier
 * one still running and records itself as skipped_overlap, which Temporal's own SKIP could not
 * show. Runs missed while the service was down are caught up for five minutes only, so an
 * outage does not end in a burst of checks.
 */
const POLICIES = { overlap: ScheduleOverlapPolicy.ALLOW_ALL, catchupWindow: '5 minutes' } as const;

/** Creates the monitor's Schedule. */
export async function createMonitorSchedule(client: Client, config: Config, s: MonitorScheduleSpec): Promise<void> {
  await client.schedule.create({
    scheduleId: monitorScheduleId(config, s.monitorId),
    spec: { cronExpressions: [s.cron], timezone: s.timezone },
    action: actionOf(config, s),
    policies: POLICIES,
    state: { paused: s.paused, ...(s.paused && { note: 'paused through the API' }) },
    memo: { monitorId: s.monitorId, teamId: s.teamId },
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.teamId, value: s.teamId },
      { key: SEARCH_ATTRIBUTES.monitorId, value: s.monitorId },
    ],
  });
}

/** Brings the Schedule in line with the monitor: timing, targets, name, and paused or not. */
export async function updateMonitorSchedule(client: Client, config: Config, s: MonitorScheduleSpec): Promise<void> {
  await client.schedule.getHandle(monitorScheduleId(config, s.monitorId)).update((previous) => ({
    ...previous,
    spec: { cronExpressions: [s.cron], timezone: s.timezone },
    action: actionOf(config, s),
    policies: POLICIES,
    state: { ...previous.state, paused: s.paused, note: s.paused ? 'paused through the API' : 'resumed through the API' },
  }));
}

/** Deletes the Schedule; one already gone is fine. */
export async function deleteMonitorSchedule(client: Client, config: Config, monitorId: string): Promise<void> {
  try {
    await client.schedule.getHandle(monitorScheduleId(config, monitorId)).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}

/** What the Schedule says about a monitor's timing: Temporal is the truth here. */
export interface ScheduleState {
  paused: boolean;
  nextRunAt: Date | null;
  /** When the Schedule last started a check. */
  lastRunAt: Date | null;
}

export function scheduleStateOf(description: ScheduleDescription): ScheduleState {
  const recent = description.info.recentActions.at(-1);
  return {
    paused: description.state.paused,
    nextRunAt: description.state.paused ? null : (description.info.nextActionTimes[0] ?? null),
    lastRunAt: recent?.scheduledAt ?? null,
  };
}

/** The Schedule's state, or undefined when it does not exist (deleted from outside). */
export async function describeMonitorSchedule(client: Client, config: Config, monitorId: string): Promise<ScheduleState | undefined> {
  try {
    return scheduleStateOf(await client.schedule.getHandle(monitorScheduleId(config, monitorId)).describe());
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return undefined;
    throw err;
  }
}
