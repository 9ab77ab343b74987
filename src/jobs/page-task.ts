import type { ScrapeOptions } from '../scrape/scrape-options';
import type { PageRef } from './page-store';

/**
 * One page to scrape, as a workflow hands it to an activity. Small on purpose: the content an
 * activity produces goes to Postgres, not back into workflow history.
 */
export interface PageTask extends PageRef {
  options: ScrapeOptions;
  /** Epoch ms by which the page must be done. */
  deadline: number;
  /** Ledger operation and idempotency key of this page's charge. */
  operation: 'scrape' | 'crawl' | 'batch' | 'extract' | 'search' | 'agent';
  chargeKey: string;
  /** Mark the job finished with the page (single-page jobs). */
  finishJob: boolean;
}

/**
 * Pages whose JSON is extracted after the scrape (the `json` format, or an extract job's pages)
 * keep their markup for the structured-data engine and are charged by the extraction step,
 * together with its result, so a failed extraction costs nothing.
 */
export function extractsJson(task: Pick<PageTask, 'operation' | 'options'>): boolean {
  return task.operation === 'extract' || task.options.formats.includes('json');
}

/** Whether storing the page finishes its job: a single-page job's, unless a json extraction follows. */
export function finishesJob(task: Pick<PageTask, 'finishJob' | 'operation' | 'options'>): boolean {
  return task.finishJob && !extractsJson(task);
}

/**
 * Whether the page (and its json extraction) is charged on its own. A search's pages are not:
 * the search charges per result it returns, once, when it finishes.
 */
export function chargedPerPage(task: Pick<PageTask, 'operation'>): boolean {
  return task.operation !== 'search';
}

export type PageTaskOutcome =
  | { kind: 'stored'; pageId: string; statusCode: number; credits: number }
  | { kind: 'needs-browser'; reason: string };

/** How a page failed for good, as recorded for the errors endpoint. */
export interface PageTaskFailure {
  code: string;
  message: string;
  attempts: number;
}
