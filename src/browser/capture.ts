import type { Page } from 'playwright';
import { AppError } from '../errors';
import type { CapturedImage, ImageFormat } from './captured-image';
import type { NetworkActivity } from './network-activity';

export interface CaptureRequest {
  format: ImageFormat;
  /** JPEG quality, 1-100. */
  quality?: number;
  fullPage: boolean;
  /** Capture the first visible element this CSS selector matches instead of the page. */
  selector?: string;
}

export interface CaptureLimits {
  /** Tallest full-page capture, in image pixels. */
  maxHeight: number;
  remainingMs: () => number;
  network: NetworkActivity;
}

export interface Capture {
  image: CapturedImage;
  /** Set when the capture was cut short of the page. */
  warning?: string;
}

/** How long a selector may take to show up before the capture fails. */
const SELECTOR_WAIT_MS = 5_000;
/** Upper bounds on scrolling a long page through and on waiting for what that loaded. */
const SCROLL_BUDGET_MS = 5_000;
const SCROLL_QUIET_MAX_MS = 3_000;
const SCROLL_PAUSE_MS = 60;

/**
 * Scrolls a page down one viewport at a time and back to the top, so lazy images and
 * infinite-scroll content below the fold load before a full-page capture.
 */
async function scrollThrough(page: Page, maxCssHeight: number, limits: CaptureLimits): Promise<void> {
  const budget = Math.min(SCROLL_BUDGET_MS, limits.remainingMs() / 3);
  const scrolled = await page.evaluate(
    async ({ maxCssHeight, budget, pause }) => {
      const started = performance.now();
      const step = Math.max(200, window.innerHeight);
      let y = 0;
      while (y + window.innerHeight < Math.min(document.documentElement.scrollHeight, maxCssHeight) && performance.now() - started < budget) {
        y += step;
        window.scrollTo(0, y);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
      window.scrollTo(0, 0);
      return y > 0;
    },
    { maxCssHeight, budget, pause: SCROLL_PAUSE_MS },
  );
  if (scrolled) await limits.network.quiet(Math.min(SCROLL_QUIET_MAX_MS, limits.remainingMs()));
}

async function captureElement(page: Page, request: CaptureRequest & { selector: string }, limits: CaptureLimits): Promise<Buffer> {
  const element = page.locator(request.selector).first();
  try {
    await element.waitFor({ state: 'visible', timeout: Math.min(SELECTOR_WAIT_MS, limits.remainingMs()) });
  } catch (err) {
    const reason = (err as Error).message.split('\n')[0];
    throw new AppError('SCREENSHOT_SELECTOR_NOT_FOUND', `No visible element matches the selector ${JSON.stringify(request.selector)}: ${reason}`);
  }
  return element.screenshot({ type: request.format, quality: request.quality, timeout: limits.remainingMs() });
}

/** Takes the screenshot a request asks for: the viewport, the whole page (capped), or one element. */
export async function capturePage(page: Page, request: CaptureRequest, limits: CaptureLimits): Promise<Capture> {
  const format = { type: request.format, quality: request.quality, timeout: limits.remainingMs() } as const;
  if (request.selector) return { image: { bytes: await captureElement(page, { ...request, selector: request.selector }, limits), format: request.format } };
  if (!request.fullPage) return { image: { bytes: await page.screenshot(format), format: request.format } };

  const dpr = await page.evaluate(() => window.devicePixelRatio);
  const maxCssHeight = Math.floor(limits.maxHeight / dpr);
  await scrollThrough(page, maxCssHeight, limits);
  const { width, height } = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    height: Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
  }));
  if (height <= maxCssHeight) return { image: { bytes: await page.screenshot({ ...format, fullPage: true }), format: request.format } };
  const bytes = await page.screenshot({ ...format, fullPage: true, clip: { x: 0, y: 0, width, height: maxCssHeight } });
  return {
    image: { bytes, format: request.format },
    warning: `The page is ${height} CSS pixels tall; the full-page screenshot was cut at ${maxCssHeight} (${limits.maxHeight} image pixels, SCREENSHOT_MAX_HEIGHT).`,
  };
}
