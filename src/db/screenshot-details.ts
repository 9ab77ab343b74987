/** The viewport a capture was taken with. */
export interface CaptureViewport {
  width: number;
  height: number;
  deviceScaleFactor: number;
  isMobile: boolean;
  fullPage: boolean;
}

/** What POST /v1/screenshot reports about a capture besides the image itself (API.md). */
export interface ScreenshotDetails {
  viewport: CaptureViewport;
  page: { url: string; statusCode: number; title: string };
  timing: { queuedMs: number; navigationMs: number; waitMs: number; captureMs: number; totalMs: number };
  warning?: string;
}
