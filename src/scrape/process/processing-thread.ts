import { processBody } from './process-body';
import type { ProcessedContent, ProcessOptions } from './processed-content';

/** One body to process, as posted to a processing thread. */
export interface ProcessingTask {
  body: Uint8Array;
  contentType: string;
  pageUrl: string;
  options: ProcessOptions;
}

/** Runs in a processing thread (see ProcessingPool); the pool loads this module by path. */
export default function processTask(task: ProcessingTask): Promise<ProcessedContent> {
  return processBody(task.body, task.contentType, task.pageUrl, task.options);
}
