import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopDelayLimit } from '../../src/limits/loop-delay-limit';

/** Holds the event loop, as a replica's main thread does when it takes more work than it keeps up with. */
function block(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

/** The replica holds one scrape throughout, unless a test says otherwise. */
const holding = () => 1;

describe('LoopDelayLimit', () => {
  let limit: LoopDelayLimit | undefined;
  afterEach(() => limit?.close());

  it('cuts the limit when the event loop runs later than the target, and raises it by one per on-time window while it turns requests away', async () => {
    // A generous target: a loaded test machine's own hiccups stay under it.
    limit = new LoopDelayLimit({ max: 16, targetDelayMs: 300, targetBusyPercent: 0, holding });
    expect(limit.current).toBe(16);
    await sleep(300);
    block(700);
    await sleep(300);
    const cut = limit.current;
    // By a quarter, once or (when the stall is seen after that window's calibration) twice.
    expect([12, 9]).toContain(cut);

    // On time but never binding: the limit stays where it is.
    await sleep(600);
    expect(limit.current).toBe(cut);

    for (let i = 0; i < 8; i++) {
      limit.noteBinding();
      await sleep(60);
    }
    expect(limit.current).toBeGreaterThan(cut);
    expect(limit.current).toBeLessThanOrEqual(16);
  });

  // Node's own event-loop-delay histogram reads an 800 ms stall in these places as about 10 ms.
  const stallPlaces: Array<[string, (stall: () => void) => void]> = [
    ['a timer callback', (stall) => setTimeout(stall, 20)],
    ['an immediate', (stall) => setImmediate(stall)],
    ['a microtask queued by a timer', (stall) => setTimeout(() => queueMicrotask(stall), 20)],
  ];
  it.each(stallPlaces)('sees a stall in %s', async (_place, schedule) => {
    limit = new LoopDelayLimit({ max: 16, targetDelayMs: 300, targetBusyPercent: 0, holding });
    await sleep(300);
    schedule(() => block(700));
    await sleep(600);
    expect(limit.current).toBeLessThan(16);
  });

  it('cuts the limit when the event loop is busy for more of a window than the target, though it never stalls long', async () => {
    limit = new LoopDelayLimit({ max: 16, targetDelayMs: 300, targetBusyPercent: 85, holding });
    await sleep(300);
    expect(limit.current).toBe(16);
    // 5 ms of work at a time, with the loop turning between: always busy, never late by much.
    const until = performance.now() + 700;
    while (performance.now() < until) {
      block(5);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await sleep(300);
    expect(limit.current).toBeLessThan(16);
  });

  it('leaves the limit alone while the replica holds no scrapes, however late its loop runs', async () => {
    let held = 0;
    limit = new LoopDelayLimit({ max: 16, targetDelayMs: 300, targetBusyPercent: 85, holding: () => held });
    await sleep(300);
    block(700);
    await sleep(300);
    expect(limit.current).toBe(16);
    held = 1;
    block(700);
    await sleep(300);
    expect(limit.current).toBeLessThan(16);
  });

  it('never goes past the ceiling nor below one', async () => {
    limit = new LoopDelayLimit({ max: 2, targetDelayMs: 100, targetBusyPercent: 0, holding });
    for (let i = 0; i < 4; i++) {
      block(400);
      await sleep(300);
    }
    expect(limit.current).toBe(1);
    for (let i = 0; i < 30; i++) {
      limit.noteBinding();
      await sleep(50);
    }
    expect(limit.current).toBe(2);
  });

  it('with no target keeps the limit at the ceiling', async () => {
    limit = new LoopDelayLimit({ max: 8, targetDelayMs: 0, targetBusyPercent: 0, holding });
    block(400);
    await sleep(300);
    expect(limit.current).toBe(8);
  });
});
