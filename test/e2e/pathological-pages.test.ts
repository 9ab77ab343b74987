import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { html, startFixtureServer, type FixtureHandler, type FixtureServer } from '../fixtures/fixture-server';
import { hugeAttributePage, hugeTablePage, manyElementsPage, manyLinksPage, manyParagraphsPage, nestedDivsPage } from '../fixtures/pathological-pages';
import { api } from '../helpers/api';
import { cpuOver, processCpuSeconds } from '../helpers/cpu-usage';
import { startOwnStack } from '../helpers/own-stack';
import type { Stack } from '../helpers/stack';

/**
 * Pages that are cheap to send and costly to process, scraped through the API with a 5 s
 * timeout. This file runs its own API and worker (own task queues), so the worker's CPU is this
 * file's alone: once a page's work is over (answered, or continued past the timeout and then
 * bounded by its processing budget), nothing may still be working on it.
 */
const TIMEOUT_MS = 5_000;
/** Room beyond `timeout` for Temporal and the API; the unbounded service answered after 10.5 s. */
const ANSWER_MARGIN_MS = 4_000;
/** CPU a worker may use while idle, as a share of one core (a spinning thread uses about 1). */
const IDLE_SHARE = 0.3;
/**
 * How long /late-links keeps the client waiting before it answers: so close to the 5 s timeout
 * that its 8 MB are still being processed when the timeout comes (at 4.3 s with half the links,
 * a fast machine processed them in time and answered 200).
 */
const LATE_MS = 4_800;
/** /late-links: 200,000 links, about 8 MB (under MAX_PAGE_BYTES). */
const lateLinks = manyLinksPage(200_000);
/** Size of /big-text, over the default MAX_PAGE_BYTES of 10 MB. */
const BIG_TEXT_MB = 12;

let site: FixtureServer;
let stack: Stack;
const pages = {
  '/nested': nestedDivsPage(),
  '/huge-attribute': hugeAttributePage(20 * 1024 * 1024),
  '/large-attribute': hugeAttributePage(9 * 1024 * 1024),
  '/links': manyLinksPage(),
  '/elements': manyElementsPage(),
  // Just under the bound on a DOM's nodes (81,920 at the default heap), so it is parsed in full.
  '/deep': nestedDivsPage(80_000),
  '/paragraphs': manyParagraphsPage(),
  '/table': hugeTablePage(),
  // Small to send; its script grows the DOM past MAX_PAGE_BYTES once rendered.
  '/grows': `<!doctype html><html><head><title>Grows</title></head><body><p>The opening sentence of the page.</p><script>document.body.append('x'.repeat(12 * 1024 * 1024))</script></body></html>`,
  '/plain': '<!doctype html><html><head><title>Plain</title></head><body><h1>Plain</h1><p>An ordinary page.</p></body></html>',
};

beforeAll(async () => {
  site = await startFixtureServer(
    {
      ...Object.fromEntries(Object.entries(pages).map(([p, body]): [string, FixtureHandler] => [p, (_req, res) => html(res, body)])),
      // Most of the timeout goes on waiting for the page, too little is left to process it.
      '/late-links': (_req, res) => void setTimeout(() => html(res, lateLinks), LATE_MS),
      // Plain text past MAX_PAGE_BYTES, chunked: no length is declared before the body.
      '/big-text': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        const line = `${'z'.repeat(1023)}\n`.repeat(1024);
        for (let mb = 0; mb < BIG_TEXT_MB; mb++) res.write(line);
        res.end();
      },
    },
    inject('siteHosts')[0]!,
  );
  stack = await startOwnStack('pathological', {
    allowPrivateHosts: [new URL(site.url).host],
    // Longer than a cancelled crawl page's test needs to see the cancellation stop it (not the
    // budget), short enough that a page continued past its timeout ends soon after.
    env: { PROCESSING_TIMEOUT_MS: '30000' },
  });
});
afterAll(async () => {
  await stack?.stop();
  await site?.close();
});

async function scrape(pagePath: string) {
  const started = performance.now();
  const response = await api('/v1/scrape', { body: { url: `${site.url}${pagePath}`, formats: ['markdown'], timeout: TIMEOUT_MS }, baseUrl: stack.apiUrl });
  return { ...response, elapsedMs: performance.now() - started };
}

/**
 * The page's document as a client that follows a 408 `processing_continues` gets it: the first
 * answer comes within the timeout, either the document or that 408; then the same request is
 * sent again until the document comes, as firecrawl-js does.
 */
async function scrapeToDocument(pagePath: string) {
  const first = await scrape(pagePath);
  expect(first.elapsedMs).toBeLessThan(TIMEOUT_MS + ANSWER_MARGIN_MS);
  let answer = first;
  while (answer.status === 408) {
    expect(answer.body).toMatchObject({ code: 'SCRAPE_TIMEOUT', details: { state: 'processing_continues' } });
    answer = await scrape(pagePath);
  }
  expect(answer.status).toBe(200);
  return { first, body: answer.body };
}

/** CPU the worker uses over the next `ms`, as a share of one core. */
async function workerCpuShare(ms: number): Promise<number> {
  return (await cpuOver(() => processCpuSeconds(stack.worker.child.pid!), ms)) / (ms / 1_000);
}

/** CPU the worker uses from 1 s to 3 s after now, as a share of one core. */
async function workerCpuShareAfterAnswer(): Promise<number> {
  await sleep(1_000);
  return workerCpuShare(2_000);
}

/** A bounded document: the page's text, whole or as the text-only fallback that says why. */
function expectBoundedDocument(body: any, ...sentences: string[]): void {
  expect(body.success).toBe(true);
  for (const s of sentences) expect(body.data.markdown).toContain(s);
  if (body.data.metadata.mainContent?.method === 'text-only') {
    expect(body.data.warning).toMatch(/^Processing the page (ran out of its \d+ ms budget|failed \(.+\)); only its plain text is returned/);
  }
}

describe('a pathological page scraped with a 5 s timeout', () => {
  it('100,000 nested <div>s: answered within the timeout, with the page text or to come, and the worker goes idle', async () => {
    const { body } = await scrapeToDocument('/nested');
    expectBoundedDocument(body, 'The opening sentence of the page.', 'The innermost sentence.', 'The closing sentence of the page.');
    expect(await workerCpuShareAfterAnswer()).toBeLessThan(IDLE_SHARE);
  });

  it('100,000 links: answered within the timeout, with every link text or to come, and the worker goes idle', async () => {
    const { body } = await scrapeToDocument('/links');
    expectBoundedDocument(body, 'Item 0', 'Item 99999', 'The closing sentence of the page.');
    expect(await workerCpuShareAfterAnswer()).toBeLessThan(IDLE_SHARE);
  });

  it('a 9 MB attribute: answered within the timeout, with the page text or to come', async () => {
    const { body } = await scrapeToDocument('/large-attribute');
    expectBoundedDocument(body, 'The sentence beside the attribute.', 'The closing sentence of the page.');
    expect(body.data.markdown).not.toContain('xxxxxxxx');
    expect(await workerCpuShareAfterAnswer()).toBeLessThan(IDLE_SHARE);
  });

  it('a 20 MB attribute: refused as larger than MAX_PAGE_BYTES, in the documented error shape', async () => {
    const { status, body, elapsedMs } = await scrape('/huge-attribute');
    expect(elapsedMs).toBeLessThan(TIMEOUT_MS + ANSWER_MARGIN_MS);
    expect(status).toBe(502);
    expect(body).toEqual({ success: false, code: 'SCRAPE_TOO_LARGE', error: `${site.url}/huge-attribute is larger than the 10485760-byte limit` });
    expect(await workerCpuShareAfterAnswer()).toBeLessThan(IDLE_SHARE);
  });
});

describe('a page whose timeout runs out while it is processed', () => {
  it('is a 408 processing_continues at the timeout; its processing goes on, the same request then gets the page, and the worker goes idle', async () => {
    const { first, body } = await scrapeToDocument('/late-links');
    expect(first.status).toBe(408);
    expect(first.body).toEqual({
      success: false,
      code: 'SCRAPE_TIMEOUT',
      error: expect.stringMatching(/^The page was not ready within 5000 ms; it is still being scraped/),
      details: { state: 'processing_continues', retryAfterSeconds: expect.any(Number), scrapeId: expect.any(String) },
    });
    expectBoundedDocument(body, 'Item 0', 'Item 99999');
    expect(site.hits.get('/late-links')).toBe(1);
    expect(await workerCpuShareAfterAnswer()).toBeLessThan(IDLE_SHARE);
  });
});

describe('a page of a million elements, scraped with a 120 s timeout and every text format', () => {
  /** The processes serving this file's stack, which a page must never end. */
  const processes = () => [stack.api, stack.worker].map((p) => ({ pid: p.child.pid, exitCode: p.child.exitCode }));
  const formats = ['markdown', 'html', 'rawHtml', 'links'];

  // About 10 MB each, under MAX_PAGE_BYTES. Its DOM would outgrow a processing thread's heap,
  // and a thread that hits its heap limit can abort its whole process (the API's, for a scrape it
  // runs itself): the page of paragraphs did, with "FATAL ERROR: ... JavaScript heap out of memory".
  it.each([
    ['/v1/scrape', '/paragraphs', {}],
    ['/v2/scrape', '/paragraphs', { maxAge: 0 }],
    ['/v1/scrape', '/elements', {}],
    ['/v2/scrape', '/table', { maxAge: 0 }],
  ])('%s %s: its text with a warning, within seconds; the API and worker go on, and the next scrape is whole', async (endpoint, pagePath, extra) => {
    const before = processes();
    const started = performance.now();
    const { status, body } = await api(endpoint, { body: { url: `${site.url}${pagePath}`, formats, timeout: 120_000, ...extra }, baseUrl: stack.apiUrl });
    expect(status).toBe(200);
    expect(body.data.warning).toMatch(
      /^Processing the page failed \(its document has more than 81920 elements and text nodes, the most processed in full\); only its plain text is returned(, cut at 2000000 characters)?\./,
    );
    expect(body.data.metadata.mainContent.method).toBe('text-only');
    expect(body.data.markdown).toContain('The opening sentence of the page.');
    expect(body.data.rawHtml.length).toBe(pages[pagePath as keyof typeof pages].length);
    expect(performance.now() - started).toBeLessThan(30_000);

    const next = await api(endpoint, { body: { url: `${site.url}/plain`, formats, ...extra }, baseUrl: stack.apiUrl });
    expect(next.status).toBe(200);
    expect(next.body.data.markdown).toBe('# Plain\n\nAn ordinary page.');
    expect(next.body.data.warning).toBeUndefined();
    expect(processes()).toEqual(before);
    expect(before.every((p) => p.exitCode === null)).toBe(true);
  });
});

describe('a page whose script grows it past MAX_PAGE_BYTES, rendered in Chromium', () => {
  it('is refused as too large, in the documented error shape; the worker goes on, and the next render is whole', async () => {
    const before = stack.worker.child.pid;
    const { status, body } = await api('/v1/scrape', { body: { url: `${site.url}/grows`, formats: ['markdown', 'rawHtml'], engine: 'browser', timeout: 60_000 }, baseUrl: stack.apiUrl });
    expect(status).toBe(502);
    expect(body).toEqual({ success: false, code: 'SCRAPE_TOO_LARGE', error: `${site.url}/grows rendered to more than the 10485760-byte limit of HTML` });

    const next = await api('/v1/scrape', { body: { url: `${site.url}/plain`, formats: ['markdown'], engine: 'browser', timeout: 60_000 }, baseUrl: stack.apiUrl });
    expect(next.status).toBe(200);
    expect(next.body.data.markdown).toBe('# Plain\n\nAn ordinary page.');
    expect(stack.worker.child.pid).toBe(before);
    expect(stack.worker.child.exitCode).toBeNull();
  });
});

describe('a plain-text response past MAX_PAGE_BYTES, opened in Chromium', () => {
  it('is refused as too large before its body is read; the worker goes on', async () => {
    const before = stack.worker.child.pid;
    const { status, body } = await api('/v1/scrape', { body: { url: `${site.url}/big-text`, formats: ['markdown'], engine: 'browser', timeout: 60_000 }, baseUrl: stack.apiUrl });
    expect(status).toBe(502);
    // As received: the body and its chunks' framing.
    expect(body).toEqual({ success: false, code: 'SCRAPE_TOO_LARGE', error: expect.stringMatching(new RegExp(`^${site.url}/big-text is \\d+ bytes, over the 10485760-byte limit$`)) });
    expect(Number(/ is (\d+) bytes/.exec(body.error)![1])).toBeGreaterThanOrEqual(BIG_TEXT_MB * 1024 * 1024);
    expect(stack.worker.child.pid).toBe(before);
    expect(stack.worker.child.exitCode).toBeNull();
  });
});

describe('a crawl cancelled while its page is being processed', () => {
  it('stops the processing within seconds: the worker goes idle', async () => {
    // 80,000 nested elements: parsing is quadratic in depth and takes many seconds, so processing is under way when the crawl is cancelled.
    const started = await api('/v1/crawl', { body: { url: `${site.url}/deep`, limit: 1, scrapeOptions: { formats: ['markdown'], timeout: 120_000 } }, baseUrl: stack.apiUrl });
    expect(started.status).toBe(200);
    await expect.poll(() => site.hits.get('/deep') ?? 0, { timeout: 30_000 }).toBe(1);
    await sleep(2_000);
    expect(await workerCpuShare(1_000)).toBeGreaterThan(IDLE_SHARE);

    const cancelled = await api(`/v1/crawl/${started.body.id}`, { method: 'DELETE', baseUrl: stack.apiUrl });
    expect(cancelled.body).toEqual({ success: true, status: 'cancelled' });
    await expect.poll(() => workerCpuShare(1_000), { timeout: 10_000, interval: 0 }).toBeLessThan(IDLE_SHARE);
  });
});
