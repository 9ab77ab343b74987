import type { PageTask } from '../jobs/page-task';
import type { ExtractSpec } from './extraction-engine';

/** What to read from one stored page. */
export interface PageExtractionInput {
  jobId: string;
  pageId: string;
  /** A schema, a prompt, or both; without a schema one is inferred from this page. */
  spec: Partial<ExtractSpec>;
  /** A scrape's `json` format: the page task, whose charge and job completion come with the result. */
  task?: PageTask;
}
