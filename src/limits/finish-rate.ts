/** How far back the rate looks. */
const WINDOW_MS = 10_000;

/**
 * Requests finished per second over the last ten seconds, for a Retry-After that says how long
 * the line ahead takes to clear at the rate it is actually served.
 */
export class FinishRate {
  private readonly times: number[] = [];

  note(now = Date.now()): void {
    this.times.push(now);
    this.trim(now);
  }

  perSecond(now = Date.now()): number {
    this.trim(now);
    return this.times.length / (WINDOW_MS / 1000);
  }

  private trim(now: number): void {
    let drop = 0;
    while (drop < this.times.length && this.times[drop]! < now - WINDOW_MS) drop++;
    if (drop) this.times.splice(0, drop);
  }
}
