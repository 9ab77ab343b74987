import Piscina from 'piscina';
import { AppError } from '../../errors';
import { isTypeScript, siblingModule } from '../../runtime/module-files';
import type { ProcessedContent, ProcessOptions } from './processed-content';
import type { ProcessingTask } from './processing-thread';
import type { TextOnlyTask } from './text-only-thread';
import { ThreadSlots, type ProcessingTurn } from './thread-slots';

/** What bounds the processing of one page. */
export interface ProcessingLimits {
  /** Epoch ms by which the caller needs its answer (the page's `timeout`). */
  deadline: number;
  /** The activity's cancellation. */
  cancel?: AbortSignal;
  /** How long fetching or rendering the page took, for the timeout message. */
  fetchMs: number;
  /** Whose turn the page waits for when every thread is busy. */
  turn?: ProcessingTurn;
}

/** Turns a fetched body into content (processBody's signature, wherever it runs). */
export type ProcessContent = (body: Uint8Array, contentType: string, pageUrl: string, options: ProcessOptions, limits: ProcessingLimits) => Promise<ProcessedContent>;

export interface ProcessingPoolOptions {
  threads: number;
  /** Most milliseconds of a thread one page's full processing may take (PROCESSING_TIMEOUT_MS). */
  budgetMs: number;
  /**
   * Most MB of old-generation heap a thread may hold (PROCESSING_THREAD_HEAP_MB). It also bounds
   * the nodes of a page's DOM (NODES_PER_HEAP_MB), so that a page never brings a thread near it.
   */
  heapMb: number;
  /** Most links kept of a page (MAX_LINKS_PER_PAGE); unset, every link. */
  maxLinks?: number;
  /** The module the processing threads run (its default export); tests swap one in. */
  threadModule?: string;
  /**
   * Told of a thread that failed while running no task of ours (its heap ran out after a task it
   * was answering was abandoned, say). The thread is replaced either way; without a listener
   * piscina's 'error' event would end the process.
   */
  onThreadError: (err: Error) => void;
}

/**
 * Of the caller's time left, what full processing leaves for the text-only fallback: a second,
 * and a tenth of a second per MB to decode and tokenize, never more than half.
 */
function textOnlyReserveMs(bodyBytes: number): number {
  return 1_000 + (bodyBytes / 1024 / 1024) * 100;
}

/** A task stopped by its budget or the caller's deadline (not by cancellation, not by its own error). */
class OutOfTime extends Error {
  constructor() {
    super('processing ran out of time');
    this.name = 'OutOfTime';
  }
}

/**
 * Threads kept for pages a client waits on (scrapes, screenshots, maps), when there are two or
 * more: a big crawl queues for the others instead of making every scrape wait behind its pages.
 */
const INTERACTIVE_THREADS = 1;

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Young-generation MB per thread: V8 scavenges it often anyway, and per-thread defaults add up. */
const YOUNG_GENERATION_MB = 8;

/**
 * Elements and text nodes a page's DOM may have per MB of a thread's heap. Reaching the heap
 * limit is not a safe way to stop a page: V8 ends the thread only when the limit is hit in
 * ordinary allocation, and aborts the whole process ("FATAL ERROR: ... JavaScript heap out of
 * memory") when it is hit inside some runtime functions (growing a hash table, say), as a 10 MB
 * page of a million `<p>`s did. Processing peaked at 2.8 KB of heap per node (100,000 `<i>`s
 * with text between them, every format, main content); 160 nodes per MB keeps the peak under
 * half the heap: 81,920 nodes in the default 512 MB. A larger page comes back as its text.
 */
const NODES_PER_HEAP_MB = 160;

function threads(filename: string, count: number, heapMb: number): Piscina {
  return new Piscina({
    filename,
    // Thread modules are TypeScript but in the compiled service. The service runs under `node
    // --import tsx`, which threads inherit (with the process's V8 flags, which a thread may not
    // be given explicitly); a process that compiles TypeScript its own way (a test runner) has
    // to add it.
    ...(isTypeScript(filename) && !process.execArgv.includes('tsx') && { execArgv: [...process.execArgv, '--import', 'tsx'] }),
    minThreads: count,
    maxThreads: count,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
}

/**
 * Processing threads for the worker. Turning a page into markdown takes milliseconds of CPU at a
 * time; on the main thread that stalls every other page's I/O, including transactions that hold
 * a crawl's budget row or a team's balance row, so all of a job's pages queue behind one page's
 * parsing. Threads keep the event loop free. What waits for a thread is bounded by the worker's
 * activity slots. Idle threads do not keep the process alive.
 *
 * Work per page is bounded: a task that outlives its budget, the caller's deadline or the
 * activity is aborted, and piscina terminates the thread running it (and starts another), so no
 * CPU is spent on a page after its answer. A page whose full processing runs out of budget or
 * throws gets its visible text instead (processTextOnly), from a thread of its own: linear work
 * that needs no DOM, and so no wait for a processing thread to be replaced. Only running out of
 * the caller's time is an error.
 */
export class ProcessingPool {
  private readonly full: Piscina<ProcessingTask, ProcessedContent>;
  private readonly textOnly: Piscina<TextOnlyTask, ProcessedContent>;
  private readonly slots: ThreadSlots;
  private readonly budgetMs: number;
  private readonly maxLinks: number | undefined;
  private readonly maxNodes: number;

  constructor(options: ProcessingPoolOptions) {
    this.full = threads(options.threadModule ?? siblingModule(__filename, 'processing-thread'), options.threads, options.heapMb);
    this.textOnly = threads(siblingModule(__filename, 'text-only-thread'), 1, options.heapMb);
    for (const pool of [this.full, this.textOnly]) pool.on('error', options.onThreadError);
    this.slots = new ThreadSlots(options.threads, options.threads > 1 ? INTERACTIVE_THREADS : 0);
    this.budgetMs = options.budgetMs;
    this.maxLinks = options.maxLinks;
    this.maxNodes = options.heapMb * NODES_PER_HEAP_MB;
  }

  readonly process: ProcessContent = async (body, contentType, pageUrl, options, limits) => {
    const availableMs = Math.max(0, limits.deadline - Date.now());
    const budgetMs = Math.round(Math.min(this.budgetMs, Math.max(availableMs - textOnlyReserveMs(body.byteLength), availableMs / 2)));
    let reason: string;
    try {
      return await this.runFull({ body, contentType, pageUrl, options: { ...options, maxLinks: this.maxLinks, maxNodes: this.maxNodes } }, budgetMs, limits);
    } catch (err) {
      if (limits.cancel?.aborted) throw err;
      reason = err instanceof OutOfTime ? `ran out of its ${budgetMs} ms budget` : `failed (${errorMessage(err)})`;
    }
    try {
      return await this.runTextOnly({ body, contentType, reason, pageUrl, maxLinks: this.maxLinks }, limits);
    } catch (err) {
      if (limits.cancel?.aborted) throw err;
      if (err instanceof OutOfTime) {
        throw new AppError(
          'SCRAPE_TIMEOUT',
          `Timed out processing ${pageUrl}: fetching it took ${limits.fetchMs} ms, and the ${availableMs} ms left of the timeout ran out while turning it into text`,
        );
      }
      throw new AppError('INTERNAL_ERROR', `Could not process ${pageUrl}: ${errorMessage(err)}`, undefined, { cause: err });
    }
  };

  async close(): Promise<void> {
    await Promise.all([this.full.destroy(), this.textOnly.destroy()]);
  }

  /**
   * Full processing, on a thread once one is free, for at most `budgetMs` from then and never
   * past the caller's deadline. Aborting a running task terminates its thread.
   */
  private async runFull(task: ProcessingTask, budgetMs: number, limits: ProcessingLimits): Promise<ProcessedContent> {
    const { signal: waited, outOfTime } = callerSignal(limits);
    const release = await this.slots.take(waited, limits.turn).catch((err: unknown) => {
      throw outOfTime(err);
    });
    const budget = AbortSignal.timeout(Math.max(1, budgetMs));
    try {
      return await this.full.run(task, { signal: AbortSignal.any([waited, budget]) });
    } catch (err) {
      throw outOfTime(err, budget);
    } finally {
      release();
    }
  }

  /** The fallback, within the caller's deadline. */
  private async runTextOnly(task: TextOnlyTask, limits: ProcessingLimits): Promise<ProcessedContent> {
    const { signal, outOfTime } = callerSignal(limits);
    try {
      return await this.textOnly.run(task, { signal });
    } catch (err) {
      throw outOfTime(err);
    }
  }
}

/**
 * Fires at the caller's deadline or its cancellation. `outOfTime` turns what a task threw into
 * OutOfTime when the deadline (or one of `timers`) ended it, rather than a cancellation.
 */
function callerSignal(limits: ProcessingLimits): { signal: AbortSignal; outOfTime: (err: unknown, ...timers: AbortSignal[]) => unknown } {
  const deadline = AbortSignal.timeout(Math.max(1, limits.deadline - Date.now()));
  return {
    signal: limits.cancel ? AbortSignal.any([limits.cancel, deadline]) : deadline,
    outOfTime: (err, ...timers) => (!limits.cancel?.aborted && [deadline, ...timers].some((t) => t.aborted) ? new OutOfTime() : err),
  };
}
