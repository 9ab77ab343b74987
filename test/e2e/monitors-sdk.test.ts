import { randomUUID } from 'node:crypto';
import { ScheduleNotFoundError } from '@temporalio/client';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { jobs, ledger, monitorChecks, monitorJobs, monitorSnapshots } from '../../src/db/schema';
import { startMonitorSite, type MonitorSite } from '../fixtures/monitor-site';
import { api } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { monitorSdk, runCheck, scheduleOf, signedByTeam, startHookReceiver, triggerCheck, until, waitForCheck } from '../helpers/monitors';
import { sdkShapeProblems } from '../helpers/sdk-types';
import { testTemporal } from '../helpers/temporal';
import { refusal } from '../helpers/sdk-refusal';

/** A word only this file's pages carry, so the local search index finds them and nothing else. */
const WORD = `tidewatch${randomUUID().slice(0, 6)}`;
let site: MonitorSite;
let hooks: Awaited<ReturnType<typeof startHookReceiver>>;
const sdk = () => monitorSdk();
const at = (path: string) => `${site.url}${path}`;

beforeAll(async () => {
  site = await startMonitorSite(inject('siteHosts')[0]!, { searchWord: WORD });
  hooks = await startHookReceiver(inject('siteHosts')[1]!);
});
afterAll(async () => {
  await site?.close();
  await hooks?.close();
});

describe('monitors through firecrawl-js 4.42', () => {
  it('creates (cron and text), reads, lists, pauses, reschedules and deletes, each monitor a Temporal Schedule', async () => {
    const a = await sdk().createMonitor({ name: 'Cron monitor', schedule: { cron: '*/30 * * * *', timezone: 'Europe/Paris' }, targets: [{ type: 'scrape', urls: [at('/watch/0497')] }] });
    expect(sdkShapeProblems(a as never, 'Monitor')).toEqual([]);
    expect(a).toMatchObject({ name: 'Cron monitor', status: 'active', schedule: { cron: '*/30 * * * *', timezone: 'Europe/Paris' }, lastRunAt: null, retentionDays: 30, judgeEnabled: false });
    expect(a.targets[0]).toMatchObject({ type: 'scrape', urls: [at('/watch/0497')], id: expect.any(String) });
    const described = await (await scheduleOf(a.id)).describe();
    // nextRunAt is the Schedule's own next action.
    expect(a.nextRunAt).toBe(described.info.nextActionTimes[0]!.toISOString());
    expect(new Date(a.nextRunAt!).getUTCMinutes() % 30).toBe(0);
    expect(described.spec.timezone).toBe('Europe/Paris');
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'monitorCheckWorkflow', staticSummary: expect.stringContaining('Cron monitor') });
    expect(described.action.type === 'startWorkflow' && described.action.memo).toMatchObject({ monitor: 'Cron monitor', teamId: inject('teamId'), targets: [`scrape ${at('/watch/0497')}`] });
    expect(described.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value])).toEqual(expect.arrayContaining([['MonitorId', a.id], ['TeamId', inject('teamId')]]));

    const b = await sdk().createMonitor({ name: 'Text monitor', schedule: { text: 'every monday at 8am' }, targets: [{ type: 'scrape', urls: [at('/watch/2997')] }] });
    expect(b.schedule).toEqual({ cron: '0 8 * * 1', timezone: 'UTC' });
    const nextB = new Date(b.nextRunAt!);
    expect([nextB.getUTCDay(), nextB.getUTCHours(), nextB.getUTCMinutes()]).toEqual([1, 8, 0]);

    expect(await sdk().getMonitor(a.id)).toEqual(a);
    const listed = await sdk().listMonitors({ limit: 100 });
    expect(listed.map((m) => m.id)).toEqual(expect.arrayContaining([a.id, b.id]));

    const paused = await sdk().updateMonitor(a.id, { status: 'paused' });
    expect(paused).toMatchObject({ status: 'paused', nextRunAt: null });
    expect((await (await scheduleOf(a.id)).describe()).state.paused).toBe(true);

    const hourly = await sdk().updateMonitor(a.id, { schedule: { text: 'hourly' }, name: 'Hourly monitor' });
    expect(hourly).toMatchObject({ status: 'paused', name: 'Hourly monitor', schedule: { cron: '0 * * * *', timezone: 'Europe/Paris' } });
    const resumed = await sdk().updateMonitor(a.id, { status: 'active' });
    expect(new Date(resumed.nextRunAt!).getUTCMinutes()).toBe(0);
    const after = await (await scheduleOf(a.id)).describe();
    expect(after.state.paused).toBe(false);
    expect(after.action.type === 'startWorkflow' && after.action.staticSummary).toContain('Hourly monitor');

    // A pause made by an operator on the Schedule itself is what the API reports.
    await (await scheduleOf(a.id)).pause('operator pause');
    expect((await sdk().getMonitor(a.id)).status).toBe('paused');

    expect(await sdk().deleteMonitor(b.id)).toBe(true);
    expect((await refusal(sdk().getMonitor(b.id))).status).toBe(404);
    await expect((await scheduleOf(b.id)).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    await sdk().deleteMonitor(a.id);
  });

  it('sees a page new, then the same, then changed with a diff naming the changed text, charged once per page, with signed webhooks', async () => {
    const word = site.wordOf('0497');
    const monitor = await sdk().createMonitor({
      name: 'Two articles',
      schedule: { cron: '0 0 1 1 *' },
      targets: [{ type: 'scrape', urls: [at('/watch/0497'), at('/watch/2997')] }],
      webhook: { url: hooks.url, metadata: { run: 'm1' }, events: ['monitor.page', 'monitor.check.completed'] },
    });

    const first = await triggerCheck(sdk(), monitor.id);
    expect(sdkShapeProblems(first as never, 'MonitorCheck')).toEqual([]);
    expect(first).toMatchObject({ status: 'completed', trigger: 'scheduled', summary: { totalPages: 2, new: 2, same: 0, changed: 0, removed: 0, error: 0 }, actualCredits: 2, billingStatus: 'confirmed' });
    expect(first.scheduledFor).toEqual(expect.any(String));
    for (const page of first.pages) expect(sdkShapeProblems(page as never, 'MonitorCheckPage')).toEqual([]);
    expect(first.pages.map((p) => [p.url, p.status])).toEqual([
      [at('/watch/0497'), 'new'],
      [at('/watch/2997'), 'new'],
    ]);

    const second = await runCheck(sdk(), monitor.id);
    expect(second).toMatchObject({ status: 'completed', trigger: 'manual', scheduledFor: null, summary: { totalPages: 2, same: 2 }, actualCredits: 2 });
    expect(second.pages.every((p) => p.previousScrapeId && p.currentScrapeId && p.previousScrapeId !== p.currentScrapeId)).toBe(true);

    site.replace('0497', word, 'Harbourmastery');
    const third = await triggerCheck(sdk(), monitor.id);
    expect(third.summary).toMatchObject({ totalPages: 2, changed: 1, same: 1 });
    const changed = third.pages.find((p) => p.status === 'changed')!;
    expect(changed.url).toBe(at('/watch/0497'));
    expect(changed.diff!.text).toMatch(new RegExp(`^-.*${word}`, 'm'));
    expect(changed.diff!.text).toMatch(/^\+.*Harbourmastery/m);
    expect((changed.diff!.json as { files: unknown[] }).files).toHaveLength(1);
    expect(changed.previousScrapeId).toBe(second.pages.find((p) => p.url === changed.url)!.currentScrapeId);

    // Pages come a page at a time with `next`, which the SDK follows; and by status.
    const firstPage = await sdk().getMonitorCheck(monitor.id, third.id, { limit: 1, autoPaginate: false });
    expect(firstPage.pages).toHaveLength(1);
    expect(firstPage.next).toContain(`/v2/monitor/${monitor.id}/checks/${third.id}?skip=1`);
    expect((await sdk().getMonitorCheck(monitor.id, third.id, { limit: 1 })).pages.map((p) => p.url)).toEqual(third.pages.map((p) => p.url));
    expect((await sdk().getMonitorCheck(monitor.id, third.id, { status: 'changed' })).pages.map((p) => p.url)).toEqual([at('/watch/0497')]);

    // Each check charged once per page checked, under keys of its own jobs.
    const db = testDatabase().db;
    for (const check of [first, second, third]) {
      const jobIds = (await db.select({ id: monitorJobs.jobId }).from(monitorJobs).where(eq(monitorJobs.checkId, check.id))).map((r) => r.id);
      const charges = await db.select({ key: ledger.idempotencyKey, amount: ledger.amount }).from(ledger).where(inArray(ledger.jobId, jobIds));
      expect(charges).toHaveLength(2);
      expect(charges.reduce((s, c) => s - c.amount, 0)).toBe(check.actualCredits);
    }

    const checks = await sdk().listMonitorChecks(monitor.id);
    expect(checks.map((c) => c.id)).toEqual([third.id, second.id, first.id]);
    const read = await sdk().getMonitor(monitor.id);
    expect(read.lastCheckSummary).toEqual(third.summary);
    expect(read.lastRunAt).not.toBeNull();

    // Webhooks: a page event per page that is not the same, then the check's end, all signed.
    await until(() => hooks.received.filter((h) => h.parsed.type === 'monitor.check.completed' && h.parsed.id === third.id).length === 1, 'the third check\'s webhook');
    const mine = hooks.received.filter((h) => [first.id, second.id, third.id].includes(h.parsed.id));
    for (const hook of mine) {
      expect(await signedByTeam(hook)).toBe(true);
      expect(hook.parsed).toMatchObject({ metadata: { run: 'm1' }, webhookId: expect.any(String) });
    }
    const events = (id: string) => mine.filter((h) => h.parsed.id === id).map((h) => [h.parsed.type, h.parsed.data[0].status]);
    expect(events(first.id)).toEqual([
      ['monitor.page', 'new'],
      ['monitor.page', 'new'],
      ['monitor.check.completed', 'completed'],
    ]);
    expect(events(second.id)).toEqual([['monitor.check.completed', 'completed']]);
    expect(events(third.id)).toEqual([
      ['monitor.page', 'changed'],
      ['monitor.check.completed', 'completed'],
    ]);
    const pageEvent = mine.find((h) => h.parsed.id === third.id && h.parsed.type === 'monitor.page')!.parsed;
    expect(pageEvent.data[0]).toMatchObject({ checkId: third.id, monitorId: monitor.id, url: at('/watch/0497'), currentScrapeId: changed.currentScrapeId, diff: { text: changed.diff!.text } });
    expect(mine.find((h) => h.parsed.id === third.id && h.parsed.type === 'monitor.check.completed')!.parsed.data[0]).toMatchObject({ summary: third.summary });
    await until(async () => ((await sdk().getMonitorCheck(monitor.id, third.id)).notificationStatus as any)?.webhook?.delivered === 2, 'the notification status');
    await sdk().deleteMonitor(monitor.id);
  });

  it('watches a site: every page compared, a page added and one removed', async () => {
    site.addSitePage('alpha', '4859');
    site.addSitePage('beta', '0225');
    const monitor = await sdk().createMonitor({
      name: 'A small site',
      schedule: { text: 'daily at 6:30' },
      targets: [{ type: 'crawl', url: at('/site/'), crawlOptions: { maxDiscoveryDepth: 1, limit: 20, sitemap: 'skip' } }],
    });
    expect(monitor.schedule.cron).toBe('30 6 * * *');
    const first = await triggerCheck(sdk(), monitor.id);
    expect(first.status).toBe('completed');
    expect(first.pages.map((p) => [p.url, p.status]).sort()).toEqual([
      [at('/site/'), 'new'],
      [at('/site/alpha'), 'new'],
      [at('/site/beta'), 'new'],
    ]);
    expect(first.targetResults![0]).toMatchObject({ type: 'crawl', crawlId: expect.any(String) });

    site.addSitePage('gamma', '0239');
    site.removeSitePage('beta');
    const second = await triggerCheck(sdk(), monitor.id);
    expect(second.pages.map((p) => [p.url, p.status]).sort()).toEqual([
      [at('/site/'), 'changed'],
      [at('/site/alpha'), 'same'],
      [at('/site/beta'), 'removed'],
      [at('/site/gamma'), 'new'],
    ]);
    expect(second.summary).toEqual({ totalPages: 4, same: 1, changed: 1, new: 1, removed: 1, error: 0 });
    expect(second.pages.find((p) => p.status === 'changed')!.diff!.text).toMatch(/^\+.*gamma/m);
    // Three pages crawled, three charged: a removed page costs nothing.
    expect(second.actualCredits).toBe(3);
    await sdk().deleteMonitor(monitor.id);
  });

  it('watches a search: a result not seen by an earlier check is new', async () => {
    expect((await api('/v2/scrape', { body: { url: at('/news/one-0497'), formats: ['markdown'] } })).status).toBe(200);
    const monitor = await sdk().createMonitor({ name: 'Search', schedule: { cron: '15 * * * *' }, targets: [{ type: 'search', queries: [WORD], maxResults: 5, searchWindow: '24h' }] });
    const first = await triggerCheck(sdk(), monitor.id);
    expect(first.pages.map((p) => [p.url, p.status])).toEqual([[at('/news/one-0497'), 'new']]);
    expect(first.targetResults![0]).toMatchObject({ type: 'search', searchCompleted: true, resultCount: 1, matches: 1 });

    expect((await api('/v2/scrape', { body: { url: at('/news/two-2997'), formats: ['markdown'] } })).status).toBe(200);
    const second = await triggerCheck(sdk(), monitor.id);
    expect(second.pages.map((p) => [p.url, p.status]).sort()).toEqual([
      [at('/news/one-0497'), 'same'],
      [at('/news/two-2997'), 'new'],
    ]);
    expect(second.targetResults![0]).toMatchObject({ resultCount: 2, matches: 1 });
    // Charged as a search: 2 credits per result returned.
    expect(second.actualCredits).toBe(4);

    const excluded = await sdk().updateMonitor(monitor.id, { targets: [{ ...(monitor.targets[0] as object), excludeDomains: [new URL(site.url).hostname] } as never] });
    expect(excluded.targets[0]).toMatchObject({ id: monitor.targets[0]!.id });
    const third = await runCheck(sdk(), monitor.id);
    expect(third.pages).toEqual([]);
    await sdk().deleteMonitor(monitor.id);
  });

  it('records a check that overlaps a running one as skipped_overlap, and one the team cannot pay for as skipped_no_credits', async () => {
    const slow = await sdk().createMonitor({ name: 'Slow', schedule: { cron: '0 0 1 1 *' }, targets: [{ type: 'scrape', urls: [at('/slow/0497')] }] });
    const running = await sdk().runMonitor(slow.id);
    const overlapping = await runCheck(sdk(), slow.id);
    expect(overlapping).toMatchObject({ status: 'skipped_overlap', error: expect.stringContaining(running.id) });
    expect((await waitForCheck(sdk(), slow.id, running.id)).status).toBe('completed');
    await sdk().deleteMonitor(slow.id);

    const broke = monitorSdk({ apiKey: inject('brokeKey') });
    const unpaid = await broke.createMonitor({ name: 'Unpaid', schedule: { cron: '0 0 1 1 *' }, targets: [{ type: 'scrape', urls: [at('/watch/0497')] }] });
    const skipped = await triggerCheck(broke, unpaid.id);
    expect(skipped).toMatchObject({ status: 'skipped_no_credits', actualCredits: 0, summary: { totalPages: 0 } });
    // Another team's monitor is not found, for reading, changing, running and deleting alike.
    expect((await refusal(sdk().getMonitor(unpaid.id))).status).toBe(404);
    expect((await refusal(sdk().updateMonitor(unpaid.id, { name: 'mine' }))).status).toBe(404);
    expect((await refusal(sdk().runMonitor(unpaid.id))).status).toBe(404);
    expect((await refusal(sdk().deleteMonitor(unpaid.id))).status).toBe(404);
    expect((await refusal(sdk().getMonitorCheck(unpaid.id, skipped.id))).status).toBe(404);
    await broke.deleteMonitor(unpaid.id);
  });

  it('answers bad input with the documented error shape', async () => {
    const base = { name: 'Bad', schedule: { cron: '*/5 * * * *' } };
    const cases: [unknown, number, string, RegExp][] = [
      [{ ...base, targets: [{ type: 'screenshot', urls: [at('/watch/0497')] }] }, 400, 'BAD_REQUEST', /target's type is "scrape", "crawl" or "search"/],
      [{ ...base, targets: [{ type: 'scrape', urls: [] }] }, 400, 'BAD_REQUEST', /at least one URL/],
      [{ ...base, targets: [] }, 400, 'BAD_REQUEST', /at least one target/],
      [{ ...base, targets: [{ type: 'scrape', urls: ['http://10.0.0.1/admin'] }] }, 403, 'URL_BLOCKED', /10\.0\.0\.1/],
      [{ name: 'Bad', schedule: { cron: '61 * * * *' }, targets: [{ type: 'scrape', urls: [at('/watch/0497')] }] }, 400, 'BAD_REQUEST', /minute field allows 0-59/],
      [{ name: 'Bad', schedule: { cron: '* * *' }, targets: [{ type: 'scrape', urls: [at('/watch/0497')] }] }, 400, 'BAD_REQUEST', /five fields/],
      [{ name: 'Bad', schedule: { text: 'whenever the tide turns' }, targets: [{ type: 'scrape', urls: [at('/watch/0497')] }] }, 400, 'BAD_REQUEST', /Could not read the schedule "whenever the tide turns"\. Understood: .*"every N minutes".*"daily \/ every day \[at TIME\]"/],
      [{ ...base, schedule: { cron: '0 * * * *', timezone: 'Mars/Olympus' }, targets: [{ type: 'scrape', urls: [at('/watch/0497')] }] }, 400, 'BAD_REQUEST', /IANA time zone/],
      [{ ...base, goal: 'tell me about prices', targets: [{ type: 'scrape', urls: [at('/watch/0497')] }] }, 422, 'LLM_NOT_CONFIGURED', /needs an LLM/],
      [{ ...base, notification: { email: { enabled: true, recipients: ['ops@example.com'] } }, targets: [{ type: 'scrape', urls: [at('/watch/0497')] }] }, 400, 'BAD_REQUEST', /SMTP/],
    ];
    for (const [body, status, code, message] of cases) {
      const res = await api('/v2/monitor', { body });
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
      expect(res.body).toMatchObject({ success: false, error: expect.stringMatching(message) });
    }
    // Through the SDK, the same refusal.
    const err = await refusal(sdk().createMonitor({ name: 'Bad', schedule: { cron: 'every day' }, targets: [{ type: 'scrape', urls: [at('/watch/0497')] }] }));
    expect(err).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect((await api(`/v2/monitor/${randomUUID()}`)).body).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect((await api('/v2/monitor/not-a-uuid/checks')).status).toBe(404);
  });

  it('removes checks and snapshots older than retentionDays through its own Schedule', async () => {
    const monitor = await sdk().createMonitor({ name: 'Short memory', schedule: { cron: '0 0 1 1 *' }, retentionDays: 1, targets: [{ type: 'scrape', urls: [at('/watch/2997')] }] });
    const old = await runCheck(sdk(), monitor.id);
    const db = testDatabase().db;
    const [oldJob] = await db.select({ id: monitorJobs.jobId }).from(monitorJobs).where(eq(monitorJobs.checkId, old.id));
    // The check is made two days old; its snapshot is still the page's only one, so its job stays.
    await db.update(monitorChecks).set({ createdAt: sql`now() - interval '2 days'` }).where(eq(monitorChecks.id, old.id));
    const recent = await runCheck(sdk(), monitor.id);
    expect(recent.summary.same).toBe(1);
    const retention = (await testTemporal()).schedule.getHandle(`${inject('queuePrefix')}-monitor-retention`);
    const runsBefore = (await retention.describe()).info.numActionsTaken;
    await retention.trigger();
    await until(async () => (await retention.describe()).info.numActionsTaken > runsBefore && (await db.select().from(monitorChecks).where(eq(monitorChecks.id, old.id))).length === 0, 'the retention run');
    expect((await refusal(sdk().getMonitorCheck(monitor.id, old.id))).status).toBe(404);
    expect((await sdk().listMonitorChecks(monitor.id)).map((c) => c.id)).toEqual([recent.id]);
    expect(await db.select().from(jobs).where(eq(jobs.id, oldJob!.id))).toHaveLength(0);
    // The newer check's page is the snapshot, kept; snapshots last seen long ago go.
    expect(await db.select().from(monitorSnapshots).where(eq(monitorSnapshots.monitorId, monitor.id))).toHaveLength(1);
    await db.update(monitorSnapshots).set({ seenAt: sql`now() - interval '2 days'` }).where(eq(monitorSnapshots.monitorId, monitor.id));
    const before = (await retention.describe()).info.numActionsTaken;
    await retention.trigger();
    await until(async () => (await retention.describe()).info.numActionsTaken > before && (await db.select().from(monitorSnapshots).where(and(eq(monitorSnapshots.monitorId, monitor.id)))).length === 0, 'the second retention run');
    expect((await runCheck(sdk(), monitor.id)).pages.map((p) => p.status)).toEqual(['new']);
    await sdk().deleteMonitor(monitor.id);
    expect(await db.select().from(monitorJobs).where(eq(monitorJobs.monitorId, monitor.id))).toHaveLength(0);
  });
});
