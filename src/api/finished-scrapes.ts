import type { StoredPageWithRow } from '../jobs/page-store';

/** A request's wait for its scrape's page, should this process store it. */
export interface FinishedScrapeWait {
  /** Resolves once the page, its charge and the job's completion are committed, with the row stored; never rejects. */
  stored: Promise<StoredPageWithRow>;
  /** Stops waiting (the request has its answer, from here or from the workflow). */
  release(): void;
}

/**
 * Scrapes that this API process's own scrape worker finished, handed to the requests waiting
 * for them. A scrape started eagerly runs here, and its answer is in Postgres once its page,
 * charge and job status are committed (one transaction): the request need not also wait for the
 * workflow's completion to reach Temporal and come back as the workflow's result. The workflow
 * still completes as always; a scrape that ran elsewhere (another replica, a worker process, a
 * retry after this worker dropped its task) is answered by its workflow's result.
 */
export class FinishedScrapes {
  private readonly waiting = new Map<string, (page: StoredPageWithRow) => void>();

  expect(jobId: string): FinishedScrapeWait {
    const stored = new Promise<StoredPageWithRow>((resolve) => this.waiting.set(jobId, resolve));
    return { stored, release: () => this.waiting.delete(jobId) };
  }

  /** The job's page is stored and the job finished; wakes its request if it waits in this process. */
  settle(jobId: string, page: StoredPageWithRow): void {
    this.waiting.get(jobId)?.(page);
  }
}
