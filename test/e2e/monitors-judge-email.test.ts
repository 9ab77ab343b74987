import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startMonitorSite, type MonitorSite } from '../fixtures/monitor-site';
import { startLlmStack, type LlmStack } from '../helpers/llm-stack';
import { monitorSdk, runCheck, until } from '../helpers/monitors';

/** A local SMTP server standing in for the operator's mail relay: it takes every message and keeps it. */
async function startMailbox(): Promise<{ url: string; mails: { from: string; to: string[]; data: string }[]; close(): Promise<void> }> {
  const mails: { from: string; to: string[]; data: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, done) {
      let data = '';
      stream.on('data', (c: Buffer) => (data += c.toString('utf8')));
      stream.on('end', () => {
        mails.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), data });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A plain-text mail's body, decoded from its transfer encoding. */
function bodyOf(data: string): string {
  const split = data.indexOf('\r\n\r\n');
  const head = data.slice(0, split);
  const body = data.slice(split + 4);
  if (/Content-Transfer-Encoding: base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

let llm: LlmStack;
let mailbox: Awaited<ReturnType<typeof startMailbox>>;
let site: MonitorSite;
const GOAL = 'Tell me when the page starts talking about harbour masters';

beforeAll(async () => {
  site = await startMonitorSite(inject('siteHosts')[1]!, { searchWord: 'judged' });
  mailbox = await startMailbox();
  llm = await startLlmStack('monitors-judge', {
    allowPrivateHosts: inject('siteHosts'),
    env: { SMTP_URL: mailbox.url, SMTP_FROM: 'Monitors <monitors@example.test>' },
  });
});
afterAll(async () => {
  await llm?.stop();
  await mailbox?.close();
  await site?.close();
});

describe('a monitor with a goal and email, an LLM and SMTP configured', () => {
  it('has each change judged against the goal, and mails the meaningful ones with their diff', async () => {
    // The model follows the goal: only a change that brings in "Harbourmastery" matters.
    llm.fake.script((request) => {
      const text = request.messages.map((m) => m.content).join('\n');
      const meaningful = /^\+.*Harbourmastery/m.test(text);
      return {
        content: JSON.stringify({
          meaningful,
          confidence: 'high',
          reason: meaningful ? 'The page now talks about harbour masters.' : 'Nothing about harbour masters.',
          meaningfulChanges: meaningful ? [{ type: 'changed', before: null, after: 'Harbourmastery', reason: 'matches the goal' }] : [],
        }),
        tokens: 800,
      };
    });
    const sdk = monitorSdk({ apiUrl: llm.stack.apiUrl });
    const word = site.wordOf('0497');
    const monitor = await sdk.createMonitor({
      name: 'Harbour watch',
      goal: GOAL,
      schedule: { text: 'every 30 minutes' },
      targets: [{ type: 'scrape', urls: [`${site.url}/watch/0497`, `${site.url}/watch/2997`] }],
      notification: { email: { enabled: true, recipients: ['harbour@example.test'], includeDiffs: true } },
    });
    expect(monitor).toMatchObject({ judgeEnabled: true, goal: GOAL, notification: { email: { enabled: true, recipients: ['harbour@example.test'], includeDiffs: true } } });

    const first = await runCheck(sdk, monitor.id);
    expect(first.summary).toMatchObject({ new: 2 });
    expect(first.pages.map((p) => p.judgment?.meaningful)).toEqual([false, false]);
    expect(llm.fake.requests).toHaveLength(2);
    expect(llm.fake.requests[0]!.messages.at(-1)!.content).toContain(`Goal: ${GOAL}`);
    // Two pages and two judgments (the json price each).
    expect(first.actualCredits).toBe(2 + 2 * 4);

    site.replace('0497', word, 'Harbourmastery');
    const second = await runCheck(sdk, monitor.id);
    const changed = second.pages.find((p) => p.status === 'changed')!;
    expect(changed.judgment).toMatchObject({ meaningful: true, confidence: 'high', reason: 'The page now talks about harbour masters.', meaningfulChanges: [{ type: 'changed', after: 'Harbourmastery' }] });
    expect(second.pages.find((p) => p.status === 'same')!.judgment).toBeNull();
    expect(second.actualCredits).toBe(2 + 4);

    // Only the second check had something meaningful to tell: one mail, with the diff.
    await until(() => mailbox.mails.length >= 1, 'the mail');
    await until(async () => ((await sdk.getMonitorCheck(monitor.id, second.id)).notificationStatus as any)?.email?.sent === true, 'the notification status');
    expect(mailbox.mails).toHaveLength(1);
    const [mail] = mailbox.mails;
    expect(mail).toMatchObject({ from: 'monitors@example.test', to: ['harbour@example.test'] });
    expect(mail!.data).toContain('Subject: Harbour watch: 1 page changed');
    const text = bodyOf(mail!.data);
    expect(text).toContain(`CHANGED  ${site.url}/watch/0497 — The page now talks about harbour masters.`);
    expect(text).toMatch(/^\+.*Harbourmastery/m);
    expect(text).toMatch(new RegExp(`^-.*${word}`, 'm'));
    expect(((await sdk.getMonitorCheck(monitor.id, first.id)).notificationStatus as any)?.email).toMatchObject({ sent: false, pages: 0 });
    await sdk.deleteMonitor(monitor.id);
  });
});
