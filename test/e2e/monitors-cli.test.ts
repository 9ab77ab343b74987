import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startMonitorSite, type MonitorSite } from '../fixtures/monitor-site';
import { callTool, connectHttpMcp, jsonOf } from '../helpers/mcp-client';
import { monitorSdk, waitForCheck } from '../helpers/monitors';
import { firecrawl } from '../helpers/firecrawl-cli';
import { wcsWithTemporal } from '../helpers/wcs-cli';

let site: MonitorSite;
beforeAll(async () => {
  site = await startMonitorSite(inject('siteHosts')[1]!, { searchWord: 'clionly' });
});
afterAll(() => site?.close());

describe('firecrawl-cli 1.23 monitor commands against this service', () => {
  it('creates, lists, runs, lists checks, reads a check, pauses and deletes a monitor', async () => {
    const page = `${site.url}/watch/0239`;
    const created = await firecrawl('monitor', 'create', '--name', 'CLI monitor', '--schedule', 'every 2 hours', '--page', page);
    expect(created).toMatchObject({ code: 0, json: { success: true, data: { name: 'CLI monitor', schedule: { cron: '0 */2 * * *', timezone: 'UTC' }, status: 'active' } } });
    const id: string = created.json.data.id;

    const listed = await firecrawl('monitor', 'list', '--limit', '100');
    expect(listed.code).toBe(0);
    expect(listed.json.data.map((m: { id: string }) => m.id)).toContain(id);
    expect((await firecrawl('monitor', 'get', id)).json.data).toMatchObject({ id, targets: [{ type: 'scrape', urls: [page] }] });

    const run = await firecrawl('monitor', 'run', id);
    expect(run).toMatchObject({ code: 0, json: { success: true, data: { monitorId: id, trigger: 'manual' } } });
    const checkId: string = run.json.data.id;
    await waitForCheck(monitorSdk(), id, checkId);

    const checks = await firecrawl('monitor', 'checks', id);
    expect(checks.json.data).toEqual([expect.objectContaining({ id: checkId, status: 'completed', summary: expect.objectContaining({ totalPages: 1, new: 1 }) })]);
    const check = await firecrawl('monitor', 'check', id, checkId, '--page-status', 'new');
    expect(check.json.data).toMatchObject({ id: checkId, pages: [{ url: page, status: 'new' }] });
    expect((await firecrawl('monitor', 'check', id, checkId, '--page-status', 'changed')).json.data.pages).toEqual([]);

    expect((await firecrawl('monitor', 'update', id, '--state', 'paused')).json.data).toMatchObject({ status: 'paused', nextRunAt: null });
    // The operator sees it too, paused.
    const operator = await wcsWithTemporal('monitors', '--team', 'test');
    expect(operator.code).toBe(0);
    expect(operator.stdout.split('\n').find((l) => l.startsWith(id))?.split('\t')).toEqual([id, 'test', 'CLI monitor', 'paused', '0 */2 * * * (UTC)', '-', expect.stringMatching(/^completed /), `${inject('queuePrefix')}-monitor-${id}`]);

    expect(await firecrawl('monitor', 'delete', id)).toMatchObject({ code: 0, json: { success: true } });
    const gone = await firecrawl('monitor', 'get', id);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`No monitor ${id}`);
  });

  it("prints the service's refusal of a bad schedule", async () => {
    const bad = await firecrawl('monitor', 'create', '--name', 'Bad', '--cron', '99 * * * *', '--page', `${site.url}/watch/0239`);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('schedule.cron: the minute field allows 0-59, not "99"');
  });
});

describe('the monitor tools of our MCP server', () => {
  it('creates, runs and reads a monitor, and deletes it', async () => {
    const mcp = await connectHttpMcp(inject('apiUrl'), inject('apiKey'));
    try {
      const page = `${site.url}/watch/2997`;
      const created = jsonOf(await callTool(mcp, 'firecrawl_monitor_create', { page, scheduleText: 'every 15 minutes', name: 'MCP monitor' }));
      expect(created).toMatchObject({ name: 'MCP monitor', schedule: { cron: '*/15 * * * *' }, targets: [{ type: 'scrape', urls: [page] }] });
      const run = jsonOf(await callTool(mcp, 'firecrawl_monitor_run', { id: created.id }));
      await waitForCheck(monitorSdk(), created.id, run.id);
      expect(jsonOf(await callTool(mcp, 'firecrawl_monitor_checks', { id: created.id })).checks).toEqual([expect.objectContaining({ id: run.id, status: 'completed' })]);
      const check = jsonOf(await callTool(mcp, 'firecrawl_monitor_check', { id: created.id, checkId: run.id, pageStatus: 'new' }));
      expect(check.pages).toEqual([expect.objectContaining({ url: page, status: 'new' })]);
      expect(jsonOf(await callTool(mcp, 'firecrawl_monitor_update', { id: created.id, body: { status: 'paused' } }))).toMatchObject({ status: 'paused' });
      expect(jsonOf(await callTool(mcp, 'firecrawl_monitor_list', { limit: 100 })).monitors.map((m: { id: string }) => m.id)).toContain(created.id);
      expect(jsonOf(await callTool(mcp, 'firecrawl_monitor_delete', { id: created.id }))).toEqual({ success: true });
      const gone = await callTool(mcp, 'firecrawl_monitor_get', { id: created.id });
      expect(gone.isError).toBe(true);
    } finally {
      await mcp.close();
    }
  });
});
