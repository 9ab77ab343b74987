/**
 * How the worker process runs (`npm start`, the tests, docker-compose.yml), for its memory: a
 * crawl at `maxConcurrency` 50 keeps about 85 MB live on the main thread, but its allocation rate
 * let V8 grow that heap to 250-350 MB, and the worker's RSS grew past 650 MB. With both settings
 * below it stays flat under 512 MB (`npm run bench crawl-scale`), at the same CPU per page.
 */

/**
 * V8 flags, which apply to every thread of the process (main, processing, workflow).
 * `--heap-growing-percent=50`: after a full collection a heap may grow to 1.5x what is live,
 * instead of up to 4x when it allocates fast. Unlike a cap (`--max-old-space-size`), it lets a
 * burst of large pages grow the heap instead of ending the process.
 * `--single-threaded-gc`: each thread collects its own heap, without V8's helper threads. The
 * worker is busy with pages on every core, so the helpers' parallel scavenges and concurrent
 * marking (18% of the machine's CPU in a crawl at `maxConcurrency` 50) only competed with them:
 * crawls took 5-11% less time, for 6 MB more at the peak of 20,000 pages (benchmarks.md, Crawl).
 * A thread now stops for the whole of each collection: a page a client waits on may wait one out.
 */
export const WORKER_NODE_FLAGS = ['--heap-growing-percent=50', '--single-threaded-gc'] as const;

/**
 * Environment read by the runtime rather than by the service. `MALLOC_ARENA_MAX`: glibc gives
 * each thread that allocates its own malloc arena by default (up to 8 per core); the worker's
 * threads (processing, workflow, Temporal core, libuv) then hold about 30 MB more.
 */
export const WORKER_PROCESS_ENV = { MALLOC_ARENA_MAX: '2' } as const;
