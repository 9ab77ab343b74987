import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT } from '../../src/config/paths';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site';
import { api } from '../helpers/api';
import { waitForCrawl } from '../helpers/crawl';

let site: CrawlSite;
let out: string;

beforeAll(async () => {
  site = await startCrawlSite(inject('siteHosts')[0]!, { pagesPerSection: 8 });
  out = mkdtempSync(path.join(os.tmpdir(), 'wcs-crawl-'));
});
afterAll(async () => {
  await site?.close();
  rmSync(out, { recursive: true, force: true });
});

/** Runs the real `wcs` bin against the test stack. */
function wcs(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'src/cli/bin.cjs'), ...args], {
      env: {
        ...process.env,
        WCS_API_URL: inject('apiUrl'),
        WCS_API_KEY: inject('apiKey'),
        DATABASE_URL: inject('databaseUrl'),
        TEMPORAL_ADDRESS: inject('temporalAddress'),
        TEMPORAL_TASK_QUEUE_PREFIX: inject('queuePrefix'),
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('wcs crawl', () => {
  it('crawls with progress and writes one markdown file per page plus graph.dot', async () => {
    const { code, stderr } = await wcs(['crawl', site.url, '--depth', '1', '--limit', '12', '--out', out]);
    expect(stderr).toMatch(/crawl \S+ started \(Temporal workflow crawl-/);
    expect(stderr).toMatch(/\d+ done · \d+ failed · \d+ queued · [\d.]+ pages\/s/);
    expect(stderr).toMatch(/crawl completed: \d+ pages/);
    expect(code).toBe(0);
    const host = new URL(site.url).host.replace(/[^\w.-]+/g, '_');
    expect(readFileSync(path.join(out, host, 'index.md'), 'utf8')).toContain('# Page /');
    expect(readFileSync(path.join(out, host, 'docs.md'), 'utf8')).toContain('# Page /docs');
    expect(readFileSync(path.join(out, 'graph.dot'), 'utf8')).toMatch(/^digraph crawl/);
  });

  it('replays the failed pages of a crawl with `wcs crawl retry`', async () => {
    const started = await api('/v1/crawl', { body: { url: site.url, maxDepth: 1, ignoreSitemap: true } });
    const first = await waitForCrawl(started.body.id);
    site.heal();
    const { code, stdout } = await wcs(['crawl', 'retry', started.body.id, '--url', `${site.url}/heal`]);
    expect(code).toBe(0);
    expect(stdout).toContain(`retrying 1 failed page(s) of crawl ${started.body.id}`);
    const second = await waitForCrawl(started.body.id);
    expect(second.completed).toBe(first.completed + 1);
  });
});
