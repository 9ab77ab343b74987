/** Image formats a capture can be taken in, with the MIME type each is served as. */
export const SCREENSHOT_FORMATS = { png: 'image/png', jpeg: 'image/jpeg' } as const;
export type ImageFormat = keyof typeof SCREENSHOT_FORMATS;

/** An image the browser took: a screenshot format or action's capture, before it is stored. */
export interface CapturedImage {
  bytes: Buffer;
  format: ImageFormat;
}
