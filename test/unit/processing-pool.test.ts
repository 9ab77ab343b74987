import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors';
import { processBody } from '../../src/scrape/process/process-body';
import { ProcessingPool } from '../../src/scrape/process/processing-pool';
import { ThreadSlots } from '../../src/scrape/process/thread-slots';
import { manyElementsPage, manyLinksPage, nestedDivsPage } from '../fixtures/pathological-pages';
import { threadCpuSeconds } from '../helpers/cpu-usage';

/** Pools whose threads must not fail outside a task: such a failure fails the test. */
const failTest = (err: Error) => {
  throw err;
};

const options = { formats: ['markdown', 'html'] as const, onlyMainContent: false, removeBase64Images: true };
const page = Buffer.from(
  '<html lang="en"><head><title>Lamps</title><meta name="description" content="About lamps"></head>' +
    '<body><nav><a href="/home">Home</a></nav><h1>Lamps</h1><p>Oil <b>and</b> glass. <a href="lens#top">Lens</a></p></body></html>',
);
const inTime = (ms = 30_000) => ({ deadline: Date.now() + ms, fetchMs: 12 });

/** The thread of this process busiest over half a second (a spinning task's), once one is busy. */
async function busyThread(): Promise<number> {
  for (let tries = 0; tries < 40; tries++) {
    const before = threadCpuSeconds('self');
    await sleep(500);
    const gains = [...threadCpuSeconds('self')].map(([tid, cpu]) => ({ tid, gain: cpu - (before.get(tid) ?? cpu) }));
    const busiest = gains.sort((a, b) => b.gain - a.gain)[0]!;
    if (busiest.gain >= 0.05) return busiest.tid;
  }
  throw new Error('no thread got busy');
}

describe('ProcessingPool', () => {
  // A budget no page here needs: a thread's first task waits for the thread to load its modules,
  // which on a loaded machine (a parallel test run on two cores) has taken more than 10 s.
  const pool = new ProcessingPool({ threads: 2, budgetMs: 60_000, heapMb: 512, onThreadError: failTest });
  afterAll(() => pool.close());

  it('gives, from its threads, what processBody gives inline', async () => {
    const threaded = await pool.process(page, 'text/html', 'https://example.com/docs/', options, inTime());
    const inline = await processBody(page, 'text/html', 'https://example.com/docs/', options);
    const { timing: _t, ...content } = threaded;
    const { timing: _i, ...expected } = inline;
    expect(content).toEqual(expected);
    expect(content.markdown).toContain('# Lamps');
    expect(content.links).toEqual(['https://example.com/home', 'https://example.com/docs/lens#top']);
    expect(content.metadata).toMatchObject({ title: 'Lamps', description: 'About lamps', language: 'en' });
  });

  it('processes many bodies at once, each into its own result', async () => {
    const bodies = Array.from({ length: 20 }, (_, i) => Buffer.from(`<html><body><h1>Page ${i}</h1></body></html>`));
    const results = await Promise.all(bodies.map((b) => pool.process(b, 'text/html; charset=utf-8', 'https://example.com/', options, inTime())));
    expect(results.map((r) => r.markdown)).toEqual(bodies.map((_, i) => `# Page ${i}`));
  });
});

describe('a page that outruns its processing budget', () => {
  const pool = new ProcessingPool({ threads: 1, budgetMs: 1, heapMb: 512, onThreadError: failTest });
  afterAll(() => pool.close());

  it('comes back as its visible text, marked text-only, with a warning that says why', async () => {
    const content = await pool.process(Buffer.from(nestedDivsPage()), 'text/html', 'https://example.com/deep', options, inTime());
    expect(content.mainContent).toEqual({ method: 'text-only', ratio: 1 });
    expect(content.warning).toBe("Processing the page ran out of its 1 ms budget; only its plain text is returned.");
    expect(content.markdown).toBe('Deep nesting\n\nThe opening sentence of the page.\n\nThe innermost sentence.\n\nThe closing sentence of the page.');
    expect(content.text).toBe(content.markdown);
    expect(content.metadata).toEqual({ title: 'Deep nesting' });
    expect(content.links).toEqual([]);
  });

  it('is a SCRAPE_TIMEOUT that says processing, not fetching, ran out of time when the caller has none left for the text', async () => {
    const big = Buffer.from(manyLinksPage(400_000));
    const failure = await pool.process(big, 'text/html', 'https://example.com/links', options, { deadline: Date.now() + 20, fetchMs: 12 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'SCRAPE_TIMEOUT', status: 408 });
    expect((failure as AppError).message).toMatch(/^Timed out processing https:\/\/example\.com\/links: fetching it took 12 ms, and the \d+ ms left of the timeout ran out while turning it into text$/);
  });
});

describe('a page with more nodes than a thread\'s heap is sized for', () => {
  // 64 MB: 10,240 elements and text nodes. The page is stopped while it is parsed, long before
  // the heap limit, whose hitting can abort the whole process rather than end the thread.
  const pool = new ProcessingPool({ threads: 1, budgetMs: 30_000, heapMb: 64, onThreadError: failTest });
  afterAll(() => pool.close());

  it('comes back as its text, saying why, and a page under the bound is processed in full on the same thread', async () => {
    const content = await pool.process(Buffer.from(manyLinksPage(100_000)), 'text/html', 'https://example.com/links', options, inTime(60_000));
    expect(content.mainContent).toEqual({ method: 'text-only', ratio: 1 });
    expect(content.warning).toBe(
      'Processing the page failed (its document has more than 10240 elements and text nodes, the most processed in full); only its plain text is returned.',
    );
    expect(content.text.length).toBeGreaterThan(100_000);
    // Its links come from the same linear pass, so a crawl still follows them.
    expect(content.links).toHaveLength(100_000);
    expect(content.links.slice(0, 2)).toEqual(['https://example.com/item/0', 'https://example.com/item/1']);
    // 3 nodes an element (`<i>a</i> `): about 9,000, and every stage's work over them, fit the heap.
    const under = await pool.process(Buffer.from(manyElementsPage(3_000)), 'text/html', 'https://example.com/elements', options, inTime(60_000));
    expect(under.warning).toBeUndefined();
    expect(under.mainContent).toBeUndefined();
    expect(under.markdown).toContain('The closing sentence of the page.');
    expect(under.html).toContain('<i>a</i>');
  });
});

describe('a processing task that never ends', () => {
  const pool = new ProcessingPool({ threads: 1, budgetMs: 2_000, heapMb: 512, threadModule: path.join(__dirname, '../fixtures/spinning-thread.ts'), onThreadError: failTest });
  afterAll(() => pool.close());
  /** A page whose processing throws falls back on the same thread: a way to wait until the thread is up. */
  const threadUp = () => pool.process(page, 'text/html', 'https://example.com/throws', options, inTime());
  const spins = (cancel?: AbortSignal) => pool.process(page, 'text/html', 'https://example.com/spins', options, { ...inTime(), ...(cancel && { cancel }) });

  it('is stopped at its budget: its thread is terminated and the page comes back as text', async () => {
    await threadUp();
    const pending = spins();
    const spinner = await busyThread();
    const content = await pending;
    expect(content.mainContent?.method).toBe('text-only');
    expect(content.markdown).toBe('Home\n\nLamps\n\nOil and glass. Lens');
    expect(content.warning).toBe('Processing the page ran out of its 2000 ms budget; only its plain text is returned.');
    await expect.poll(() => threadCpuSeconds('self').has(spinner), { timeout: 5_000 }).toBe(false);
  });

  it('is stopped when the activity is cancelled, and the cancellation is what the caller sees', async () => {
    await threadUp();
    const cancel = new AbortController();
    const pending = spins(cancel.signal);
    void pending.catch(() => undefined);
    const spinner = await busyThread();
    cancel.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => threadCpuSeconds('self').has(spinner), { timeout: 5_000 }).toBe(false);
  });

  it('falls back to the text when processing throws, saying so', async () => {
    const content = await threadUp();
    expect(content.mainContent?.method).toBe('text-only');
    expect(content.markdown).toBe('Home\n\nLamps\n\nOil and glass. Lens');
    expect(content.warning).toBe('Processing the page failed (Maximum call stack size exceeded); only its plain text is returned.');
  });
});

describe('processing threads shared by crawls and pages a client waits on', () => {
  const never = new AbortController().signal;
  /** Whether a take has been granted yet, after pending callbacks have run. */
  const granted = async (take: Promise<() => void>) => {
    let done = false;
    void take.then(() => (done = true));
    await sleep(0);
    return done;
  };

  it('lets a crawl use every thread while no client is waiting on a page', async () => {
    const slots = new ThreadSlots(2, 1);
    expect(await granted(slots.take(never, { background: true }))).toBe(true);
    expect(await granted(slots.take(never, { background: true }))).toBe(true);
  });

  it('keeps a thread for scrapes once one has come, and hands freed threads to scrapes first', async () => {
    const slots = new ThreadSlots(2, 1);
    const scrape = await slots.take(never);
    scrape();
    const crawlPage = await slots.take(never, { background: true });
    const secondCrawlPage = slots.take(never, { background: true });
    expect(await granted(secondCrawlPage)).toBe(false);
    const nextScrape = slots.take(never);
    expect(await granted(nextScrape)).toBe(true);
    const lastScrape = slots.take(never);
    expect(await granted(lastScrape)).toBe(false);
    crawlPage();
    expect(await granted(lastScrape)).toBe(true);
    expect(await granted(secondCrawlPage)).toBe(false);
    (await nextScrape)();
    (await lastScrape)();
    expect(await granted(secondCrawlPage)).toBe(true);
  });

  it("hands freed threads to teams in turn: a team's burst waits behind itself, not in front of another team's page", async () => {
    const slots = new ThreadSlots(1);
    const running = await slots.take(never, { fairnessKey: 'a' });
    const burst = Array.from({ length: 3 }, () => slots.take(never, { fairnessKey: 'a' }));
    // Team b starts waiting behind three of team a's pages, and has had no turn lately: it goes next.
    const others = [slots.take(never, { fairnessKey: 'b' }), slots.take(never, { fairnessKey: 'b' })];
    running();
    expect(await granted(others[0]!)).toBe(true);
    expect(await granted(burst[0]!)).toBe(false);
    // While both wait, turns alternate: a's first page, then b's second, then a's others in order.
    const order: Promise<() => void>[] = [burst[0]!, others[1]!, burst[1]!, burst[2]!];
    let holding = await others[0]!;
    for (const [i, next] of order.entries()) {
      holding();
      expect(await granted(next)).toBe(true);
      for (const later of order.slice(i + 1)) expect(await granted(later)).toBe(false);
      holding = await next;
    }
    holding();
  });

  it("leaves one thread of a team's burst for another team that has had a page lately; a team alone uses every thread", async () => {
    const slots = new ThreadSlots(2);
    const alone = [await slots.take(never, { fairnessKey: 'a' }), await slots.take(never, { fairnessKey: 'a' })];
    for (const release of alone) release();
    (await slots.take(never, { fairnessKey: 'b' }))();
    // Team b had a page a moment ago: team a's burst gets one thread, and b's next page the other at once.
    const burst = Array.from({ length: 3 }, () => slots.take(never, { fairnessKey: 'a' }));
    expect(await granted(burst[0]!)).toBe(true);
    expect(await granted(burst[1]!)).toBe(false);
    const next = slots.take(never, { fairnessKey: 'b' });
    expect(await granted(next)).toBe(true);
    (await next)();
    expect(await granted(burst[1]!)).toBe(false);
    (await burst[0]!)();
    expect(await granted(burst[1]!)).toBe(true);
  });
});

describe('a processing thread that runs out of heap just as its page is abandoned', () => {
  const errors: Error[] = [];
  const pool = new ProcessingPool({ threads: 1, budgetMs: 10_000, heapMb: 32, threadModule: path.join(__dirname, '../fixtures/memory-hungry-thread.ts'), onThreadError: (err) => errors.push(err) });
  afterAll(() => pool.close());

  // The page's budget ends (its thread is terminated) about when its heap runs out: the thread's
  // out-of-memory error then belongs to no task. Unheard, piscina's 'error' event would end the
  // process; the pool reports it and goes on.
  it('is reported and replaced, and every page still gets an answer', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 30; i++) {
      const deadline = Date.now() + 10 + (i % 15) * 20;
      answers.push(
        await pool.process(page, 'text/html', 'https://example.com/hungry', options, { deadline, fetchMs: 0 }).then(
          (content) => content.mainContent?.method ?? 'none',
          (err: { code?: string }) => err.code ?? 'error',
        ),
      );
    }
    expect(new Set(answers)).toSatisfy((kinds: Set<string>) => [...kinds].every((k) => k === 'text-only' || k === 'SCRAPE_TIMEOUT'));
    for (const err of errors) expect(err).toMatchObject({ code: 'ERR_WORKER_OUT_OF_MEMORY' });
  });
});
