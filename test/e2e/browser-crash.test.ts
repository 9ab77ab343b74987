import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshots } from '../../src/db/schema';
import { SHOT } from '../fixtures/screenshot-pages';
import { api, fixture } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { dimensions, download, pixel } from '../helpers/images';
import { chromiumChildOf, processTree } from '../helpers/processes';
import { startOwnStack } from '../helpers/own-stack';
import type { Stack } from '../helpers/stack';
import { testTemporal } from '../helpers/temporal';

/**
 * Its own API and worker (own task queues), so killing its Chromium disturbs no other test; one
 * browser page at a time, so a second job waits for the first's.
 */
describe('the browser pool of a worker', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startOwnStack('browser-crash', {
      allowPrivateHosts: [new URL(inject('fixtureUrl')).host],
      env: { BROWSER_RESTART_AFTER_PAGES: '2', BROWSER_MAX_PAGES: '1' },
    });
  });
  afterAll(() => stack?.stop());

  it('fails only that attempt: the activity retries on a fresh browser and the job completes', async () => {
    const workerPid = stack.worker.child.pid!;
    expect(chromiumChildOf(workerPid)).toBeUndefined();
    // waitFor keeps the page open long enough to kill the browser while it holds it.
    const pending = api('/v1/screenshot', { body: { url: fixture('/shot/colors'), waitFor: 8_000, timeout: 30_000 }, baseUrl: stack.apiUrl });

    await expect.poll(() => chromiumChildOf(workerPid), { timeout: 30_000, interval: 100 }).toBeDefined();
    const first = chromiumChildOf(workerPid)!;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    process.kill(first, 'SIGKILL');

    const { status, body } = await pending;
    expect(status).toBe(200);
    const image = await download(body.data.url);
    expect(dimensions(image.bytes)).toMatchObject({ width: 1280, height: 800 });
    expect(pixel(image.bytes, SHOT.red.x + 10, SHOT.red.y + 10)).toEqual(SHOT.red.rgb);

    const second = chromiumChildOf(workerPid);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);

    const id = path.basename(new URL(body.data.url).pathname, '.png');
    const [row] = await testDatabase().db.select().from(screenshots).where(eq(screenshots.id, id));
    const history = await (await testTemporal()).workflow.getHandle(`screenshot-${row!.jobId}`).fetchHistory();
    const started = history.events!.map((e) => e.activityTaskStartedEventAttributes).filter((a) => a != null);
    expect(started).toHaveLength(1);
    expect(started[0]!.attempt).toBe(2);
    // Temporal keeps a retried activity's last failure only up to a size; over it (Playwright's
    // call log can take it there) the stored failure says so and carries the original as cause.
    const failure = started[0]!.lastFailure;
    const reason = failure?.message === 'Failure exceeds size limit.' ? failure.cause?.message : failure?.message;
    expect(reason).toMatch(/closed|crash|disconnect/i);
  });

  it('answers 408 at its deadline for a screenshot still waiting for a browser page, not a late capture', async () => {
    const holder = api('/v1/screenshot', { body: { url: fixture('/shot/colors'), waitFor: 6_000, timeout: 30_000 }, baseUrl: stack.apiUrl });
    await new Promise((resolve) => setTimeout(resolve, 500));
    let held = true;
    void holder.finally(() => (held = false));
    const { status, body } = await api('/v1/screenshot', { body: { url: fixture('/shot/colors'), timeout: 2_000 }, baseUrl: stack.apiUrl });
    expect(status).toBe(408);
    expect(body).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    expect(body.error).toMatch(/waiting for a free browser page/);
    // It left the queue at its deadline: the page it waited for is still taken.
    expect(held).toBe(true);
    expect((await holder).status).toBe(200);
  });

  it('relaunches Chromium after BROWSER_RESTART_AFTER_PAGES pages, one browser at a time', async () => {
    const workerPid = stack.worker.child.pid!;
    const seen = new Set<number>();
    for (let i = 0; i < 4; i++) {
      const { status } = await api('/v1/screenshot', { body: { url: fixture('/shot/colors') }, baseUrl: stack.apiUrl });
      expect(status).toBe(200);
      const browsers = processTree(workerPid).filter((p) => p.ppid === workerPid && /chrom/i.test(p.comm));
      expect(browsers.length).toBeLessThanOrEqual(1);
      for (const b of browsers) seen.add(b.pid);
    }
    expect(seen.size).toBeGreaterThanOrEqual(2);
  });
});
