import { Counter } from 'prom-client';
import { METRIC_PREFIX, metrics } from '../metrics/registry';
import type { HttpScrapeResult } from '../scrape/http-scraper';

const prefetches = new Counter({
  name: `${METRIC_PREFIX}scrape_prefetches_total`,
  help: "Pages this API began fetching while it started their scrape's workflow, by whether the scrape's local activity took the fetch over (used) or ran elsewhere, so the fetch was dropped.",
  labelNames: ['used'] as const,
  registers: [metrics],
});

/** One request's fetch begun ahead of its scrape's local activity (PrefetchedPages.start). */
export interface Prefetch {
  /** Drops the fetch unless the activity took it over; once the request has ended (later calls do nothing). */
  release(): void;
}

interface Pending {
  result: Promise<HttpScrapeResult>;
  abort: AbortController;
  taken: boolean;
}

/**
 * Fetches begun by the API for scrapes it is starting eagerly, handed to the scrape's local
 * activity in this process. Starting a workflow and reaching its first activity takes Temporal
 * about 12 ms (the start's round trip and the SDK's hand-off to the activity); fetching and
 * processing a small page takes about 5, and need not wait for them. The workflow still does
 * the work that counts: its activity stores the page and charges it, from the fetch it takes
 * over here or, should it run anywhere else or be retried, from one of its own.
 */
export class PrefetchedPages {
  private readonly pending = new Map<string, Pending>();

  /** Begins `fetch` for job `jobId`, with a signal that aborts it once nobody wants it. */
  start(jobId: string, fetch: (signal: AbortSignal) => Promise<HttpScrapeResult>): Prefetch {
    const abort = new AbortController();
    const result = fetch(abort.signal);
    // Rejections are the taker's; a fetch nobody takes must not be an unhandled one.
    result.catch(() => undefined);
    const entry: Pending = { result, abort, taken: false };
    this.pending.set(jobId, entry);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        if (this.pending.get(jobId) === entry) this.pending.delete(jobId);
        if (entry.taken) return;
        entry.abort.abort();
        prefetches.inc({ used: 'false' });
      },
    };
  }

  /**
   * The fetch begun for `jobId`, once: the activity's `cancel` aborts it from then on. Undefined
   * when there is none (another process started the scrape, or the request has ended).
   */
  take(jobId: string, cancel: AbortSignal): Promise<HttpScrapeResult> | undefined {
    const entry = this.pending.get(jobId);
    if (!entry || entry.taken) return undefined;
    entry.taken = true;
    prefetches.inc({ used: 'true' });
    if (cancel.aborted) entry.abort.abort();
    else cancel.addEventListener('abort', () => entry.abort.abort(), { once: true });
    return entry.result;
  }
}
