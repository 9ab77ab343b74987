import type { StoredPageWithRow } from '../jobs/page-store';

/** A request's wait for its scrape's page, should this process store it. */
export interface FinishedScrapeWait {
  /** Resolves once the page, its charge and the job's completion are committed, with the row stored; never rejects. */
  stored: Promise<StoredPageWithRow>;
  /**
   * Resolves when this process's worker ran the scrape's page step and it ended without the
   * job's page (a failure the workflow may retry, a page only a browser can fill): the answer
   * then comes from the workflow. Never rejects.
   */
  passedOn: Promise<void>;
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
  private readonly waiting = new Map<string, { stored: (page: StoredPageWithRow) => void; passedOn: () => void }>();

  expect(jobId: string): FinishedScrapeWait {
    let passOn!: () => void;
    const passedOn = new Promise<void>((resolve) => (passOn = resolve));
    const stored = new Promise<StoredPageWithRow>((resolve) => this.waiting.set(jobId, { stored: resolve, passedOn: passOn }));
    return { stored, passedOn, release: () => this.waiting.delete(jobId) };
  }

  /**
   * The job's page step ended here: with its page stored and the job finished, which wakes its
   * request if it waits in this process, or without (undefined), which sends the request to the
   * workflow's result.
   */
  settle(jobId: string, page: StoredPageWithRow | undefined): void {
    const waiting = this.waiting.get(jobId);
    if (page) waiting?.stored(page);
    else waiting?.passedOn();
  }
}
