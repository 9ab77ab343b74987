import type { Page, Request } from 'playwright';

/** How long no request may be in flight before the network counts as quiet. */
export const QUIET_WINDOW_MS = 250;
const POLL_MS = 25;

/**
 * Watches a page's requests so a render can wait for the network to go quiet: nothing in
 * flight for QUIET_WINDOW_MS. Playwright's own `networkidle` waits a fixed 500 ms even on a
 * page that is long done; this waits only as long as requests keep coming.
 */
export class NetworkActivity {
  private readonly inflight = new Set<Request>();
  private lastChange = performance.now();

  constructor(page: Page) {
    const done = (r: Request) => {
      if (this.inflight.delete(r)) this.lastChange = performance.now();
    };
    page.on('request', (r) => {
      this.inflight.add(r);
      this.lastChange = performance.now();
    });
    page.on('requestfinished', done);
    page.on('requestfailed', done);
  }

  /** Resolves true once the network is quiet, false when `maxMs` ran out first. */
  async quiet(maxMs: number): Promise<boolean> {
    const until = performance.now() + maxMs;
    for (;;) {
      const now = performance.now();
      if (this.inflight.size === 0 && now - this.lastChange >= QUIET_WINDOW_MS) return true;
      if (now >= until) return false;
      const wait = this.inflight.size === 0 ? QUIET_WINDOW_MS - (now - this.lastChange) : POLL_MS;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(wait, until - now))));
    }
  }
}
