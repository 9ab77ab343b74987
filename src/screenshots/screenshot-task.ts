import type { ScreenshotOptions } from './screenshot-options';

/** One POST /v1/screenshot, as its workflow hands it to the capture activity. */
export interface ScreenshotTask {
  jobId: string;
  teamId: string;
  url: string;
  options: ScreenshotOptions;
  /** Epoch ms the API accepted the request, for `timing.queuedMs`. */
  requestedAt: number;
  /** Epoch ms by which the capture must be done. */
  deadline: number;
}
