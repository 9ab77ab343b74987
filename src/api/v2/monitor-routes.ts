import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { monitorCheckWorkflow } from '../../../workflows';
import { AppError } from '../../errors';
import { CHECK_STATUSES, PAGE_STATUSES, plansOf } from '../../monitors/monitor-plan';
import { checkWorkflowIdPrefix, createMonitorSchedule, deleteMonitorSchedule, describeMonitorSchedule, describeTargets, updateMonitorSchedule, type MonitorScheduleSpec } from '../../monitors/monitor-schedule';
import { checkPages, checkStateOf, deleteMonitorData, findCheck, findMonitor, insertMonitor, listChecks, listMonitors, snapshotCounts, updateMonitorRow, type MonitorRow, type NewMonitor } from '../../monitors/monitor-store';
import { SEARCH_ATTRIBUTES } from '../../temporal/search-attributes';
import type { ApiDeps } from '../api-deps';
import type { RouteContext, RouteTable } from '../route';
import { checkPageSchema, checkPageView, checkSchema, checkView, monitorSchema, monitorView, queuedCheckView } from './monitor-view';
import { createMonitorSchema, judgeOf, notificationOf, runMonitorSchema, scheduleOf, targetsOf, updateMonitorSchema, webhookOf } from './monitor-request';

const TAG = 'Firecrawl v2 monitors';
/** How long POST /run waits for the check's run to record it before answering it as queued. */
const RUN_RECORD_WAIT_MS = 3_000;

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
const checksQuery = listQuery.extend({ status: z.enum(CHECK_STATUSES).optional().describe('Only checks of this status.') });
const checkQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1_000).default(100).describe('Pages of the check to return.'),
  skip: z.coerce.number().int().min(0).default(0),
  status: z.enum(PAGE_STATUSES).optional().describe('Only pages of this status.'),
});
const pagination = z.object({ limit: z.number().int(), offset: z.number().int(), total: z.number().int() });

const ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/** The Schedule a monitor row calls for. */
function specOf(row: MonitorRow): MonitorScheduleSpec {
  return { monitorId: row.id, teamId: row.teamId, name: row.name, cron: row.cron, timezone: row.timezone, plans: plansOf(row), paused: row.status === 'paused' };
}

export function registerV2MonitorRoutes(routes: RouteTable, deps: ApiDeps): void {
  const { db, config, temporal } = deps;

  const requireMonitor = async (ctx: RouteContext): Promise<MonitorRow> => {
    const row = await findMonitor(db, ctx.state.team.teamId, ctx.params.id ?? '');
    if (!row) throw new AppError('NOT_FOUND', `No monitor ${ctx.params.id}`);
    return row;
  };

  const views = async (rows: MonitorRow[]) => {
    const checks = await checkStateOf(db, rows.map((r) => r.id));
    return Promise.all(
      rows.map(async (row) => monitorView(row, await describeMonitorSchedule(temporal, config, row.id), checks.get(row.id) ?? {}, await snapshotCounts(db, row.id))),
    );
  };

  routes.add({
    method: 'post',
    path: '/v2/monitor',
    tag: TAG,
    summary: 'Create a monitor',
    description:
      'Watches pages (`scrape`), a whole site (`crawl`) or search queries (`search`) on a schedule, as one Temporal Schedule; each check compares every page with its previous snapshot. The schedule is a five-field `cron` or a natural-language `text`, returned as cron.',
    auth: true,
    body: createMonitorSchema,
    responses: {
      200: { description: 'The monitor', schema: ok(monitorSchema) },
      400: { description: 'Bad input: an unknown target type, no URLs, a bad cron, schedule text that cannot be read, email without SMTP (BAD_REQUEST)' },
      403: { description: 'A URL is not public (URL_BLOCKED)' },
      422: { description: 'A goal to judge, and no LLM configured (LLM_NOT_CONFIGURED)' },
    },
    handler: async (ctx, { body }) => {
      const { teamId } = ctx.state.team;
      const schedule = scheduleOf(body.schedule);
      const judgeEnabled = judgeOf(body.goal, body.judgeEnabled, config);
      const notification = body.notification && notificationOf(body.notification, config);
      const webhook = body.webhook && webhookOf(body.webhook, deps.gate);
      const { targets, plans } = await targetsOf(body.targets, deps.gate);
      const row: NewMonitor = {
        id: randomUUID(),
        teamId,
        name: body.name,
        cron: schedule.cron,
        timezone: schedule.timezone,
        targets,
        plans,
        ...(webhook && { webhook }),
        ...(notification && { notification }),
        retentionDays: body.retentionDays ?? 30,
        goal: body.goal ?? null,
        judgeEnabled,
      };
      const inserted = await insertMonitor(db, row);
      try {
        await createMonitorSchedule(temporal, config, specOf(inserted));
      } catch (err) {
        await deleteMonitorData(db, inserted.id);
        throw err;
      }
      ctx.body = { success: true, data: (await views([inserted]))[0] };
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/monitor',
    tag: TAG,
    summary: "The team's monitors",
    auth: true,
    query: listQuery,
    responses: { 200: { description: 'Monitors, newest first', schema: ok(z.array(monitorSchema)).extend({ pagination }) } },
    handler: async (ctx, { query }) => {
      const { rows, total } = await listMonitors(db, ctx.state.team.teamId, query.limit, query.offset);
      ctx.body = { success: true, data: await views(rows), pagination: { limit: query.limit, offset: query.offset, total } };
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/monitor/:id',
    tag: TAG,
    summary: 'A monitor',
    description: "`status`, `nextRunAt` and `lastRunAt` are read from the monitor's Temporal Schedule, so a pause made in the Temporal UI shows here.",
    auth: true,
    responses: { 200: { description: 'The monitor', schema: ok(monitorSchema) }, 404: { description: 'No such monitor of this team (NOT_FOUND)' } },
    handler: async (ctx) => {
      ctx.body = { success: true, data: (await views([await requireMonitor(ctx)]))[0] };
    },
  });

  routes.add({
    method: 'patch',
    path: '/v2/monitor/:id',
    tag: TAG,
    summary: 'Change a monitor',
    description: 'Fields given replace the stored ones; the Schedule follows (its timing, its targets, paused or not). `webhook`, `notification` and `goal` take null to remove them.',
    auth: true,
    body: updateMonitorSchema,
    responses: {
      200: { description: 'The monitor', schema: ok(monitorSchema) },
      400: { description: 'Bad input (BAD_REQUEST)' },
      404: { description: 'No such monitor of this team (NOT_FOUND)' },
      422: { description: 'A goal to judge, and no LLM configured (LLM_NOT_CONFIGURED)' },
    },
    handler: async (ctx, { body }) => {
      const row = await requireMonitor(ctx);
      const schedule = body.schedule ? scheduleOf(body.schedule, row) : { cron: row.cron, timezone: row.timezone };
      const goal = body.goal === undefined ? row.goal : body.goal;
      const judgeEnabled = judgeOf(goal, body.judgeEnabled ?? (body.goal !== undefined ? undefined : row.judgeEnabled), config);
      const patch: Partial<NewMonitor> = {
        ...(body.name !== undefined && { name: body.name }),
        ...(body.status !== undefined && { status: body.status }),
        cron: schedule.cron,
        timezone: schedule.timezone,
        ...(body.targets && (await targetsOf(body.targets, deps.gate))),
        ...(body.webhook !== undefined && { webhook: body.webhook && webhookOf(body.webhook, deps.gate) }),
        ...(body.notification !== undefined && { notification: body.notification && notificationOf(body.notification, config) }),
        ...(body.retentionDays !== undefined && { retentionDays: body.retentionDays }),
        goal,
        judgeEnabled,
      };
      // An operator's pause in the Temporal UI holds unless the request says otherwise.
      const current = await describeMonitorSchedule(temporal, config, row.id);
      const next = { ...row, ...patch, status: body.status ?? (current?.paused ? 'paused' : row.status) } as MonitorRow;
      await updateMonitorSchedule(temporal, config, specOf(next));
      const updated = await updateMonitorRow(db, row.id, { ...patch, status: next.status });
      ctx.body = { success: true, data: (await views([updated]))[0] };
    },
  });

  routes.add({
    method: 'delete',
    path: '/v2/monitor/:id',
    tag: TAG,
    summary: 'Delete a monitor',
    description: 'Deletes its Schedule, its checks and snapshots, and the jobs its checks ran. A check running now stops at its next step.',
    auth: true,
    responses: { 200: { description: 'Deleted', schema: z.object({ success: z.literal(true) }) }, 404: { description: 'No such monitor of this team (NOT_FOUND)' } },
    handler: async (ctx) => {
      const row = await requireMonitor(ctx);
      await deleteMonitorSchedule(temporal, config, row.id);
      await deleteMonitorData(db, row.id);
      ctx.body = { success: true };
    },
  });

  routes.add({
    method: 'post',
    path: '/v2/monitor/:id/run',
    tag: TAG,
    summary: 'Check a monitor now',
    description: 'Starts a check outside the schedule (`trigger: "manual"`), paused or not. Answers the check as its run recorded it (`running`, or `skipped_overlap` while another check runs), or `queued` if it has not yet.',
    auth: true,
    body: runMonitorSchema,
    responses: { 200: { description: 'The check', schema: ok(checkSchema) }, 404: { description: 'No such monitor of this team (NOT_FOUND)' } },
    handler: async (ctx) => {
      const row = await requireMonitor(ctx);
      const checkId = randomUUID();
      await temporal.workflow.start(monitorCheckWorkflow, {
        taskQueue: config.taskQueues.http,
        workflowId: `${checkWorkflowIdPrefix(row.id)}-manual-${checkId}`,
        args: [{ monitorId: row.id, trigger: 'manual', checkId }],
        staticSummary: `Monitor "${row.name.slice(0, 100)}" (manual check)`,
        memo: { monitor: row.name, teamId: row.teamId, targets: describeTargets(plansOf(row)) },
        typedSearchAttributes: [
          { key: SEARCH_ATTRIBUTES.teamId, value: row.teamId },
          { key: SEARCH_ATTRIBUTES.monitorId, value: row.id },
        ],
      });
      const started = Date.now();
      let check = await findCheck(db, row.id, checkId);
      while (!check && Date.now() - started < RUN_RECORD_WAIT_MS) {
        await sleep(100);
        check = await findCheck(db, row.id, checkId);
      }
      ctx.body = { success: true, data: check ? checkView(check) : queuedCheckView(checkId, row.id, new Date()) };
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/monitor/:id/checks',
    tag: TAG,
    summary: "A monitor's checks",
    auth: true,
    query: checksQuery,
    responses: { 200: { description: 'Checks, newest first', schema: ok(z.array(checkSchema)).extend({ pagination }) }, 404: { description: 'No such monitor of this team (NOT_FOUND)' } },
    handler: async (ctx, { query }) => {
      const row = await requireMonitor(ctx);
      const { rows, total } = await listChecks(db, row.id, query);
      ctx.body = { success: true, data: rows.map(checkView), pagination: { limit: query.limit, offset: query.offset, total } };
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/monitor/:id/checks/:checkId',
    tag: TAG,
    summary: 'A check, with its pages',
    description: 'Each page with its status (same/new/changed/removed/error), its diff and any judgment; `next` is the URL of the following pages.',
    auth: true,
    query: checkQuery,
    responses: {
      200: {
        description: 'The check and a page of its pages',
        schema: ok(checkSchema.extend({ pages: z.array(checkPageSchema), next: z.string().nullable() })).extend({ next: z.string().nullable(), pagination: z.object({ limit: z.number().int(), skip: z.number().int(), total: z.number().int() }) }),
      },
      404: { description: 'No such monitor or check of this team (NOT_FOUND)' },
    },
    handler: async (ctx, { query }) => {
      const row = await requireMonitor(ctx);
      const check = await findCheck(db, row.id, ctx.params.checkId ?? '');
      if (!check) throw new AppError('NOT_FOUND', `No check ${ctx.params.checkId} of monitor ${row.id}`);
      const { rows, total } = await checkPages(db, check.id, query);
      const more = query.skip + rows.length < total;
      const next = more
        ? `${config.PUBLIC_URL}/v2/monitor/${row.id}/checks/${check.id}?${new URLSearchParams({ skip: String(query.skip + rows.length), limit: String(query.limit), ...(query.status && { status: query.status }) })}`
        : null;
      ctx.body = { success: true, data: { ...checkView(check), pages: rows.map(checkPageView), next }, next, pagination: { limit: query.limit, skip: query.skip, total } };
    },
  });
}
