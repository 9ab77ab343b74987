import { z } from 'zod';
import { clientTags, scrapeOptionsShape } from '../scrape/scrape-options';

/** Body of POST /v1/screenshot (API.md). Viewport and pixel density default to the device's. */
export const screenshotRequestSchema = z
  .strictObject({
    url: z.string().min(1).max(8192).describe('The page to capture (http or https).'),
    fullPage: z.boolean().default(false).describe('Capture the whole page, scrolled through so lazy content loads; cut at SCREENSHOT_MAX_HEIGHT with a warning.'),
    viewport: z
      .strictObject({ width: z.number().int().min(100).max(3840), height: z.number().int().min(100).max(3840) })
      .optional()
      .describe('CSS pixels; default 1280×800 (the device’s with mobile).'),
    deviceScaleFactor: z.number().min(0.5).max(4).optional().describe('Image pixels per CSS pixel; default 1 (the device’s with mobile).'),
    mobile: scrapeOptionsShape.mobile.describe('Emulate a phone (Pixel 7): mobile user agent, touch, its viewport and density.'),
    format: z.enum(['png', 'jpeg']).default('png'),
    quality: z.number().int().min(1).max(100).optional().describe('JPEG quality, 1-100.'),
    selector: z.string().min(1).max(500).optional().describe('Capture the first visible element this CSS selector matches.'),
    waitFor: scrapeOptionsShape.waitFor.describe('Milliseconds to wait after the page settled. At most timeout/2.'),
    timeout: scrapeOptionsShape.timeout,
    headers: scrapeOptionsShape.headers,
    blockAds: scrapeOptionsShape.blockAds,
    ...clientTags,
  })
  .superRefine((o, ctx) => {
    if (o.quality !== undefined && o.format !== 'jpeg') ctx.addIssue({ code: 'custom', path: ['quality'], message: 'quality applies to format "jpeg" only' });
    if (o.selector && o.fullPage) ctx.addIssue({ code: 'custom', path: ['selector'], message: 'Capture a selector or the full page, not both' });
    if (o.waitFor > o.timeout / 2) ctx.addIssue({ code: 'custom', path: ['waitFor'], message: `waitFor (${o.waitFor}) must be at most half of timeout (${o.timeout})` });
  });

export type ScreenshotRequestBody = z.infer<typeof screenshotRequestSchema>;
/** What a screenshot job carries, without the URL and the client tags. */
export type ScreenshotOptions = Omit<ScreenshotRequestBody, 'url' | 'origin' | 'integration'>;

export function screenshotOptionsOf(body: ScreenshotRequestBody): ScreenshotOptions {
  const { url: _url, origin: _origin, integration: _integration, ...options } = body;
  return options;
}
