import { processTextOnly, type TextOnlyPage } from './process-text-only';
import type { ProcessedContent } from './processed-content';

/** A body whose full processing did not finish, and why (for the warning). */
export interface TextOnlyTask extends TextOnlyPage {
  body: Uint8Array;
}

/**
 * Runs in the text-only thread (see ProcessingPool). It imports no DOM, so it starts in a
 * fraction of the time a processing thread takes.
 */
export default function textOnlyTask(task: TextOnlyTask): ProcessedContent {
  return processTextOnly(task.body, task);
}
