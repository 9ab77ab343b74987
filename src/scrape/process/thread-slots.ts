import { FairWaiters } from './fair-waiters';

/** How long after a page its kind's or its team's reserved slots stay kept for the next one. */
const RESERVE_WINDOW_MS = 10_000;

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
 * once. With none lately a crawl may use every thread, so a crawl alone runs at full speed.
 * Teams are kept apart the same way: while another team has had a page lately, one team holds
 * at most all threads but one, so a burst of one team's pages leaves a thread for the next
 * team's page instead of making it wait for one of the burst's to end; a team alone uses every
 * thread. A freed slot goes to a waiting interactive page first; within a kind, teams take
 * turns (FairWaiters).
 */
export class ThreadSlots {
  private free: number;
  /** When the last interactive page asked for a slot (performance.now()). */
  private lastInteractive = Number.NEGATIVE_INFINITY;
  /** When each team last asked for a slot (performance.now()); teams quiet for a window are dropped. */
  private readonly lastSeen = new Map<string, number>();
  /** Slots each team holds now. */
  private readonly held = new Map<string, number>();
  /** Waiters by kind, in turn between teams. */
  private readonly waiting: Record<SlotKind, FairWaiters> = { interactive: new FairWaiters(), background: new FairWaiters() };

  constructor(
    private readonly count: number,
    private readonly reserved = 0,
  ) {
    this.free = count;
  }

  /** Resolves with the slot's release once one is free; rejects if `signal` aborts first. */
  async take(signal: AbortSignal, turn: ProcessingTurn = {}): Promise<() => void> {
    signal.throwIfAborted();
    const kind: SlotKind = turn.background ? 'background' : 'interactive';
    const key = turn.fairnessKey ?? '';
    const now = performance.now();
    if (kind === 'interactive') this.lastInteractive = now;
    this.lastSeen.set(key, now);
    if (this.grantable(kind, key)) {
      this.hold(key);
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
      const left = this.held.get(key)! - 1;
      if (left === 0) this.held.delete(key);
      else this.held.set(key, left);
      this.dispatch();
    };
  }

  private hold(key: string): void {
    this.free--;
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
  }

  private grantable(kind: SlotKind, key: string): boolean {
    const now = performance.now();
    const kept = kind === 'interactive' ? 0 : now - this.lastInteractive < RESERVE_WINDOW_MS ? this.reserved : 0;
    return this.free > kept && (this.held.get(key) ?? 0) < this.teamShare(key, now);
  }

  /** Slots one team may hold: all but one while another team has had a page lately, else all. */
  private teamShare(key: string, now: number): number {
    let others = false;
    for (const [team, seen] of this.lastSeen) {
      if (now - seen >= RESERVE_WINDOW_MS) this.lastSeen.delete(team);
      else if (team !== key) others = true;
    }
    return others ? Math.max(1, this.count - 1) : this.count;
  }

  /** Hands free slots to waiters, interactive ones first, teams in turn. */
  private dispatch(): void {
    for (const kind of ['interactive', 'background'] as const) {
      for (;;) {
        const next = this.waiting[kind].shift((key) => this.grantable(kind, key));
        if (!next) break;
        this.hold(next.key);
        next.grant();
      }
    }
  }
}
