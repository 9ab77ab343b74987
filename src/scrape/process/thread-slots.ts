/**
 * One slot per processing thread. A task takes a slot before it is posted, so the pool's
 * threads are never oversubscribed and a task's budget starts when a thread is free for it:
 * time spent waiting behind other pages counts against the caller's deadline, not the budget.
 */
export class ThreadSlots {
  private free: number;
  /** Waiters, first come first served (a Set keeps insertion order). */
  private readonly waiting = new Set<() => void>();

  constructor(count: number) {
    this.free = count;
  }

  /** Resolves with the slot's release once one is free; rejects if `signal` aborts first. */
  async take(signal: AbortSignal): Promise<() => void> {
    signal.throwIfAborted();
    if (this.free > 0) {
      this.free--;
    } else {
      await new Promise<void>((resolve, reject) => {
        const abandon = () => {
          this.waiting.delete(grant);
          reject(signal.reason);
        };
        const grant = () => {
          signal.removeEventListener('abort', abandon);
          resolve();
        };
        this.waiting.add(grant);
        signal.addEventListener('abort', abandon, { once: true });
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.values().next();
      if (next.done) {
        this.free++;
      } else {
        // The slot passes straight to the next waiter.
        this.waiting.delete(next.value);
        next.value();
      }
    };
  }
}
