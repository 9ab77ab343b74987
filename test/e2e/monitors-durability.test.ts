import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ledger, monitorCheckPages, monitorChecks, monitorJobs, pages } from '../../src/db/schema';
import { startMonitorSite, type MonitorSite } from '../fixtures/monitor-site';
import { testDatabase } from '../helpers/db';
import { monitorSdk, until, waitForCheck } from '../helpers/monitors';
import { startOwnStack } from '../helpers/own-stack';
import type { Stack } from '../helpers/stack';

/** A stack of this file's own, so its worker can be killed without touching the shared one. */
let stack: Stack;
let site: MonitorSite;
const SLOW = ['0497', '2997', '0082', '4859', '0225'];

beforeAll(async () => {
  site = await startMonitorSite(inject('siteHosts')[0]!, { searchWord: 'durable', slowMs: 1_500 });
  stack = await startOwnStack('monitors-durability', { allowPrivateHosts: inject('siteHosts') });
});
afterAll(async () => {
  await stack?.stop();
  await site?.close();
});

const sdk = () => monitorSdk({ apiUrl: stack.apiUrl });

describe('monitor checks are durable', () => {
  it('fires on its own from a per-minute Schedule and records the check', async () => {
    const monitor = await sdk().createMonitor({ name: 'Every minute', schedule: { cron: '* * * * *' }, targets: [{ type: 'scrape', urls: [`${site.url}/watch/0497`] }] });
    let scheduled: string | undefined;
    await until(
      async () => {
        scheduled = (await sdk().listMonitorChecks(monitor.id)).find((c) => c.trigger === 'scheduled')?.id;
        return scheduled !== undefined;
      },
      'a check the Schedule started',
      75_000,
    );
    const check = await waitForCheck(sdk(), monitor.id, scheduled!);
    expect(check).toMatchObject({ status: 'completed', trigger: 'scheduled', summary: { totalPages: 1, new: 1 } });
    // The Schedule meant it for a minute boundary, and says so.
    expect(new Date(check.scheduledFor!).getUTCSeconds()).toBe(0);
    expect((await sdk().getMonitor(monitor.id)).lastRunAt).toBe(check.scheduledFor);
    await sdk().deleteMonitor(monitor.id);
  });

  it('completes a check once, charged once per page, after its worker is killed mid-check', async () => {
    const urls = SLOW.map((id) => `${site.url}/slow/${id}`);
    const monitor = await sdk().createMonitor({ name: 'Slow pages', schedule: { cron: '0 0 1 1 *' }, targets: [{ type: 'scrape', urls }] });
    const { id: checkId } = await sdk().runMonitor(monitor.id);
    const db = testDatabase().db;
    const jobOf = async () => (await db.select({ id: monitorJobs.jobId }).from(monitorJobs).where(eq(monitorJobs.checkId, checkId)))[0]?.id;
    const stored = async () => {
      const job = await jobOf();
      if (!job) return 0;
      return (await db.select({ n: sql<number>`count(*)::int` }).from(pages).where(and(eq(pages.jobId, job), eq(pages.status, 'scraped'))))[0]!.n;
    };
    await until(async () => (await stored()) >= 1, 'the first page of the check', 60_000);
    stack.worker.child.kill('SIGKILL');
    await stack.worker.exited;
    expect(await stored()).toBeLessThan(SLOW.length);
    expect((await sdk().getMonitorCheck(monitor.id, checkId)).status).toBe('running');
    await stack.restartWorker();

    const check = await waitForCheck(sdk(), monitor.id, checkId, 120_000);
    expect(check).toMatchObject({ status: 'completed', summary: { totalPages: SLOW.length, new: SLOW.length }, actualCredits: SLOW.length });
    const jobId = (await jobOf())!;
    const rows = await db.select({ urlKey: pages.urlKey }).from(pages).where(eq(pages.jobId, jobId));
    expect(rows).toHaveLength(SLOW.length);
    const charges = await db.select({ key: ledger.idempotencyKey, amount: ledger.amount }).from(ledger).where(eq(ledger.jobId, jobId));
    expect(charges.map((c) => c.key).sort()).toEqual(rows.map((r) => `batch:${jobId}:${r.urlKey}`).sort());
    expect(charges.every((c) => c.amount === -1)).toBe(true);
    expect(await db.select().from(monitorCheckPages).where(eq(monitorCheckPages.checkId, checkId))).toHaveLength(SLOW.length);
    expect(await db.select().from(monitorChecks).where(eq(monitorChecks.monitorId, monitor.id))).toHaveLength(1);
    await sdk().deleteMonitor(monitor.id);
  });
});
