import path from 'node:path';
import Piscina from 'piscina';
import type { ProcessedContent, ProcessOptions } from './processed-content';
import type { ProcessingTask } from './processing-thread';

/** Turns a fetched body into content (processBody's signature, wherever it runs). */
export type ProcessContent = (body: Uint8Array, contentType: string, pageUrl: string, options: ProcessOptions) => Promise<ProcessedContent>;

/**
 * Processing threads for the worker. Turning a page into markdown takes milliseconds of CPU at a
 * time; on the main thread that stalls every other page's I/O, including transactions that hold
 * a crawl's budget row or a team's balance row, so all of a job's pages queue behind one page's
 * parsing. Threads keep the event loop free. What waits for a thread is bounded by the worker's
 * activity slots. Idle threads do not keep the process alive.
 */
export class ProcessingPool {
  private readonly pool: Piscina<ProcessingTask, ProcessedContent>;

  constructor(threads: number) {
    this.pool = new Piscina({
      filename: path.join(__dirname, 'processing-thread.ts'),
      // The thread module is TypeScript. The service runs under `node --import tsx`, which threads
      // inherit; a process that compiles TypeScript its own way (a test runner) has to add it.
      execArgv: process.execArgv.includes('tsx') ? process.execArgv : [...process.execArgv, '--import', 'tsx'],
      minThreads: threads,
      maxThreads: threads,
    });
  }

  readonly process: ProcessContent = (body, contentType, pageUrl, options) => this.pool.run({ body, contentType, pageUrl, options });

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
