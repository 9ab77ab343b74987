import type { Priority } from '@temporalio/common';

/**
 * Crawls and batch scrapes run one step below the default priority (3) that scrapes and the
 * other short workflows a client waits on get: when a task queue is backlogged, a waiting
 * scrape's tasks are dispatched before a crawl's. The crawl's activities inherit it. (Imported
 * by workflows: nothing here may do I/O.)
 */
export const CRAWL_PRIORITY: Priority = { priorityKey: 4 };
