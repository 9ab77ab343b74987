/** How often the sampling timer is due; each gap it measures includes this much. */
const RESOLUTION_MS = 10;

/**
 * Times how late this thread's event loop runs, from the clock: a 10 ms timer measures the gap
 * since its last run, and every `windowMs` it hands over the window's longest stall.
 *
 * Not Node's monitorEventLoopDelay: that histogram can miss a stall that happens inside a
 * timer's callback or an immediate (an 800 ms busy-wait there read as 10-13 ms; in an I/O
 * callback, 801 ms), and much of a busy server's work runs there.
 */
export class LoopStallTimer {
  private readonly timer: NodeJS.Timeout;
  private lastTick = performance.now();
  private windowStart = this.lastTick;
  /** The window's longest stall so far, in ms. */
  private longestMs = 0;

  constructor(windowMs: number, onWindow: (longestStallMs: number) => void) {
    this.timer = setInterval(() => {
      const now = performance.now();
      this.longestMs = Math.max(this.longestMs, now - this.lastTick - RESOLUTION_MS);
      this.lastTick = now;
      if (now - this.windowStart < windowMs) return;
      onWindow(this.longestMs);
      this.windowStart = now;
      this.longestMs = 0;
    }, RESOLUTION_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
