import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Firecrawl, { type MonitorCheck, type MonitorCheckDetail } from '@mendable/firecrawl-js';
import { eq } from 'drizzle-orm';
import { inject } from 'vitest';
import { teams } from '../../src/db/schema';
import { testDatabase } from './db';
import { testTemporal } from './temporal';

/** The SDK on a stack (the shared one unless told), with a key (the test team's unless told). */
export function monitorSdk(o: { apiUrl?: string; apiKey?: string } = {}): Firecrawl {
  return new Firecrawl({ apiKey: o.apiKey ?? inject('apiKey'), apiUrl: o.apiUrl ?? inject('apiUrl') });
}

/** The monitor's Temporal Schedule, as the stack with `queuePrefix` named it. */
export async function scheduleOf(monitorId: string, queuePrefix = inject('queuePrefix')) {
  return (await testTemporal()).schedule.getHandle(`${queuePrefix}-monitor-${monitorId}`);
}

const FINAL = ['completed', 'failed', 'partial', 'skipped_overlap', 'skipped_no_credits'];

/** Polls a check until it ended; answers it with all its pages. */
export async function waitForCheck(sdk: Firecrawl, monitorId: string, checkId: string, timeoutMs = 90_000): Promise<MonitorCheckDetail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const check = await sdk.getMonitorCheck(monitorId, checkId).catch(() => undefined);
    if (check && FINAL.includes(check.status)) return check;
    if (Date.now() > deadline) throw new Error(`check ${checkId} of monitor ${monitorId} did not end in ${timeoutMs} ms (last: ${check?.status})`);
    await sleep(250);
  }
}

/** Fires the monitor's Schedule now (as its cron would) and waits for the check it starts to end. */
export async function triggerCheck(sdk: Firecrawl, monitorId: string, o: { queuePrefix?: string; timeoutMs?: number } = {}): Promise<MonitorCheckDetail> {
  const before = new Set((await sdk.listMonitorChecks(monitorId, { limit: 100 })).map((c) => c.id));
  await (await scheduleOf(monitorId, o.queuePrefix)).trigger();
  const deadline = Date.now() + 30_000;
  let fresh: MonitorCheck | undefined;
  while (!(fresh = (await sdk.listMonitorChecks(monitorId, { limit: 100 })).find((c) => !before.has(c.id)))) {
    if (Date.now() > deadline) throw new Error(`the Schedule of monitor ${monitorId} started no check`);
    await sleep(200);
  }
  return waitForCheck(sdk, monitorId, fresh.id, o.timeoutMs);
}

/** Runs a check now through the API (`trigger: "manual"`) and waits for it to end. */
export async function runCheck(sdk: Firecrawl, monitorId: string): Promise<MonitorCheckDetail> {
  const check = await sdk.runMonitor(monitorId);
  return waitForCheck(sdk, monitorId, check.id);
}

export interface ReceivedHook {
  body: string;
  signature: string;
  parsed: any;
  headers: http.IncomingHttpHeaders;
}

/** A webhook receiver on a test host, recording every delivery. */
export async function startHookReceiver(host: string): Promise<{ url: string; received: ReceivedHook[]; close(): Promise<void> }> {
  const received: ReceivedHook[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ body, signature: String(req.headers['x-webhook-signature']), parsed: JSON.parse(body), headers: req.headers });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Whether a delivery carries the signature the team's webhook secret makes of its body. */
export async function signedByTeam(hook: ReceivedHook, teamId = inject('teamId')): Promise<boolean> {
  const [team] = await testDatabase().db.select({ secret: teams.webhookSecret }).from(teams).where(eq(teams.id, teamId));
  return hook.signature === `sha256=${createHmac('sha256', team!.secret).update(hook.body).digest('hex')}`;
}

/** Waits until `ready` holds, polling. */
export async function until(ready: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}
