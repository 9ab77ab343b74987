/** How long after an interactive page its reserved slots stay kept for the next one. */
const RESERVE_WINDOW_MS = 10_000;

import { FairWaiters } from './fair-waiters';

/** Whose page a task is: one a client waits on, or a crawl's, which can wait its turn. */
export type SlotKind = 'interactive' | 'background';

/** Whose turn a page's processing waits for. */
export interface ProcessingTurn {
  /** A crawl's page, which no client waits on: it leaves a thread free for those that do. */
  background?: boolean;
  /** The team whose page it is: waiting pages are served in turn between teams. */
  fairnessKey?: string;
}

/**
 * One slot per processing thread. A task takes a slot before it is posted, so the pool's
 * threads are never oversubscribed and a task's budget starts when a thread is free for it:
 * time spent waiting behind other pages counts against the caller's deadline, not the budget.
 *
 * While interactive pages come in (one in the last RESERVE_WINDOW_MS), `reserved` slots are
 * kept for them: however many crawl pages queue, a scrape a client waits on finds a thread at
 * once. With none lately a crawl may use every thread, so a crawl alone runs at full speed. A
 * freed slot goes to a waiting interactive page first; within a kind, teams take turns
 * (FairWaiters), so one team's burst does not stand in front of another team's page.
 */
export class ThreadSlots {
  private free: number;
  /** When the last interactive page asked for a slot (performance.now()). */
  private lastInteractive = Number.NEGATIVE_INFINITY;
  /** Waiters by kind, in turn between teams. */
  private readonly waiting: Record<SlotKind, FairWaiters> = { interactive: new FairWaiters(), background: new FairWaiters() };

  constructor(
    count: number,
    private readonly reserved = 0,
  ) {
    this.free = count;
  }

  /** Resolves with the slot's release once one is free; rejects if `signal` aborts first. */
  async take(signal: AbortSignal, turn: ProcessingTurn = {}): Promise<() => void> {
    signal.throwIfAborted();
    const kind: SlotKind = turn.background ? 'background' : 'interactive';
    const key = turn.fairnessKey ?? '';
    if (kind === 'interactive') this.lastInteractive = performance.now();
    if (this.grantable(kind)) {
      this.free--;
    } else {
      await new Promise<void>((resolve, reject) => {
        const abandon = () => {
          this.waiting[kind].delete(key, grant);
          reject(signal.reason);
        };
        const grant = () => {
          signal.removeEventListener('abort', abandon);
          resolve();
        };
        this.waiting[kind].add(key, grant);
        signal.addEventListener('abort', abandon, { once: true });
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.free++;
      this.dispatch();
    };
  }

  private grantable(kind: SlotKind): boolean {
    if (kind === 'interactive') return this.free > 0;
    return this.free > (performance.now() - this.lastInteractive < RESERVE_WINDOW_MS ? this.reserved : 0);
  }

  /** Hands free slots to waiters, interactive ones first. */
  private dispatch(): void {
    for (const kind of ['interactive', 'background'] as const) {
      while (!this.waiting[kind].empty && this.grantable(kind)) {
        this.free--;
        this.waiting[kind].shift()!();
      }
    }
  }
}
