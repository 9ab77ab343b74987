import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright';
import { playwright } from './playwright-module';
import type { Logger } from 'pino';
import { abortable } from '../deadline';
import { CHROMIUM_ARGS } from './launch-args';

export interface BrowserPoolOptions {
  executablePath: string;
  /** Pages open at once across all contexts; more wait their turn. */
  maxPages: number;
  /** Relaunch the browser after it has served this many contexts. */
  restartAfterPages: number;
  /** Proxy every context falls back to (the gate), so no request leaves unfiltered. */
  defaultProxy: string;
  logger: Logger;
}

interface Generation {
  browser: Promise<Browser>;
  served: number;
  active: number;
  retired: boolean;
}

/**
 * One Chromium per worker, reused across jobs, with one context per job. The browser is
 * relaunched after `restartAfterPages` contexts (once its last context closes) and after a
 * crash; a crash fails only the contexts that were open in it.
 */
export class BrowserPool {
  private current: Generation | null = null;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;

  constructor(private readonly options: BrowserPoolOptions) {}

  /**
   * Runs `fn` in a fresh context, closed afterwards whatever happens. `fn` gets a signal that
   * aborts if Chromium crashes or is killed, for the browser part of its work to fail at once
   * (and be retried on a fresh browser) whatever Playwright call it waits in. When `signal`
   * aborts while the job waits for a page, it leaves the queue with the signal's reason.
   */
  async withContext<T>(contextOptions: BrowserContextOptions, fn: (context: BrowserContext, crashed: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquireSlot(signal);
    const generation = this.generation();
    generation.active++;
    generation.served++;
    let browser: Browser | undefined;
    let context: BrowserContext | undefined;
    const crashed = new AbortController();
    const disconnected = () => crashed.abort(new Error('Chromium disconnected (it crashed or was killed) while it held this page'));
    try {
      const launched = await generation.browser;
      browser = launched;
      launched.once('disconnected', disconnected);
      if (!launched.isConnected()) disconnected();
      context = await abortable(crashed.signal, () => launched.newContext(contextOptions));
      return await fn(context, crashed.signal);
    } finally {
      browser?.off('disconnected', disconnected);
      if (browser?.isConnected()) await context?.close().catch(() => {});
      generation.active--;
      if (generation.served >= this.options.restartAfterPages) this.retire(generation);
      this.releaseSlot();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const generation = this.current;
    this.current = null;
    if (generation) await (await generation.browser.catch(() => null))?.close().catch(() => {});
  }

  private generation(): Generation {
    if (this.closed) throw new Error('browser pool is closed');
    if (!this.current || this.current.retired) this.current = this.launch();
    return this.current;
  }

  private launch(): Generation {
    const generation: Generation = { browser: Promise.resolve(null as unknown as Browser), served: 0, active: 0, retired: false };
    generation.browser = playwright()
      .chromium.launch({
        executablePath: this.options.executablePath,
        headless: true,
        args: CHROMIUM_ARGS,
        proxy: { server: this.options.defaultProxy },
        // The worker drains its activities on SIGTERM and closes the browser afterwards.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      })
      .then((browser) => {
        browser.on('disconnected', () => {
          if (this.current === generation) this.current = null;
          if (!generation.retired && !this.closed) this.options.logger.warn('chromium disconnected; the next page relaunches it');
        });
        return browser;
      });
    generation.browser.catch(() => {
      if (this.current === generation) this.current = null;
    });
    return generation;
  }

  private retire(generation: Generation): void {
    generation.retired = true;
    if (this.current === generation) this.current = null;
    if (generation.active === 0) void generation.browser.then((b) => b.close()).catch(() => {});
  }

  private acquireSlot(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.running < this.options.maxPages) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const gaveUp = () => {
        this.waiting.splice(this.waiting.indexOf(handOver), 1);
        reject(signal!.reason);
      };
      const handOver = () => {
        signal?.removeEventListener('abort', gaveUp);
        resolve();
      };
      signal?.addEventListener('abort', gaveUp, { once: true });
      this.waiting.push(handOver);
    });
  }

  private releaseSlot(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
