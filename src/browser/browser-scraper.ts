import type { BrowserContext, BrowserContextOptions, Page, Response } from 'playwright';
import { playwright } from './playwright-module';
import { AppError, isErrorCode } from '../errors';
import { FilteringProxy, PROXY_ERROR_HEADER } from '../net/filtering-proxy';
import { defaultPort, type PublicUrlGate } from '../net/public-url-gate';
import { abortable, deadlineSignal } from '../deadline';
import type { ProcessContent } from '../scrape/process/processing-pool';
import { requestHeaders } from '../scrape/request-headers';
import type { ScrapeOptions } from '../scrape/scrape-options';
import type { ScrapedPage } from '../scrape/scraped-page';
import type { CaptureViewport, ScreenshotDetails } from '../db/screenshot-details';
import type { CapturedImage } from './captured-image';
import { isAdHost } from './ad-hosts';
import type { BrowserPool } from './browser-pool';
import { readBranding } from './branding';
import { capturePage, type CaptureRequest } from './capture';
import { NetworkActivity } from './network-activity';
import { runActions } from './run-actions';
import type { ProcessingTurn } from '../scrape/process/thread-slots';

/** Upper bound on waiting for the network to go quiet after `load`. */
const NETWORK_QUIET_MAX_MS = 5_000;
const DESKTOP_VIEWPORT = { width: 1280, height: 800 };
/** The device a `mobile` scrape emulates, from Playwright's device list. */
const MOBILE_DEVICE = 'Pixel 7';

export interface BrowserScraperConfig {
  userAgent: string;
  /** Tallest full-page capture, in image pixels (SCREENSHOT_MAX_HEIGHT). */
  maxCaptureHeight: number;
  /** processBody, in processing threads (ProcessingPool) or inline. */
  process: ProcessContent;
  /** Largest rendered HTML taken from a page, in bytes (MAX_PAGE_BYTES, as for a fetched body). */
  maxBytes: number;
}

/** How a page is opened: the request and device settings shared by scrapes and screenshots. */
export interface PageSetup extends Pick<ScrapeOptions, 'headers' | 'location' | 'mobile' | 'skipTlsVerification' | 'blockAds' | 'waitFor'> {
  /** Overrides the device's viewport and pixel density. */
  viewport?: { width: number; height: number };
  deviceScaleFactor?: number;
  /** Load images and fonts too (screenshots need them). */
  loadAllResources: boolean;
}

/** A page that has loaded and settled, handed to what the job does with it. */
interface OpenedPage {
  page: Page;
  response: Response | null;
  viewport: Omit<CaptureViewport, 'fullPage'>;
  network: NetworkActivity;
  timing: { navigationMs: number; waitMs: number };
  remainingMs: () => number;
}

/** Stores an image and answers its URL. */
export type SaveImage = (image: CapturedImage) => Promise<string>;

export interface ScreenshotRequest extends CaptureRequest {
  setup: PageSetup;
}

export interface ScreenshotResult {
  image: CapturedImage;
  details: Omit<ScreenshotDetails, 'timing'> & { timing: { navigationMs: number; waitMs: number; captureMs: number } };
}

function contextOptions(setup: PageSetup, proxyUrl: string, userAgent: string): { options: BrowserContextOptions; viewport: OpenedPage['viewport'] } {
  const { 'user-agent': agent, ...extraHTTPHeaders } = requestHeaders(userAgent, setup);
  const customAgent = Object.keys(setup.headers ?? {}).some((h) => h.toLowerCase() === 'user-agent');
  const { defaultBrowserType: _, ...mobile } = playwright().devices[MOBILE_DEVICE]!;
  const device = setup.mobile
    ? { ...mobile, ...(customAgent && { userAgent: agent }) }
    : { viewport: DESKTOP_VIEWPORT, userAgent: agent, deviceScaleFactor: 1, isMobile: false, hasTouch: false };
  const viewport = setup.viewport ?? device.viewport;
  const deviceScaleFactor = setup.deviceScaleFactor ?? device.deviceScaleFactor;
  return {
    options: {
      ...device,
      viewport,
      deviceScaleFactor,
      proxy: { server: proxyUrl },
      extraHTTPHeaders,
      ignoreHTTPSErrors: setup.skipTlsVerification,
      ...(setup.location?.languages?.[0] && { locale: setup.location.languages[0] }),
    },
    viewport: { ...viewport, deviceScaleFactor, isMobile: device.isMobile },
  };
}

async function blockRequests(context: BrowserContext, setup: PageSetup): Promise<void> {
  const blockedTypes = new Set(setup.loadAllResources ? ['media'] : ['image', 'media', 'font']);
  await context.route('**/*', (route) => {
    const request = route.request();
    if (request.isNavigationRequest() && request.frame().parentFrame() === null) return route.continue();
    if (blockedTypes.has(request.resourceType())) return route.abort('blockedbyclient');
    if (setup.blockAds && isAdHost(new URL(request.url()).hostname)) return route.abort('blockedbyclient');
    return route.continue();
  });
}

function setupOf(options: ScrapeOptions): PageSetup {
  const screenshots = options.formats.some((f) => f.startsWith('screenshot')) || (options.actions ?? []).some((a) => a.type === 'screenshot');
  const viewport = options.screenshot?.viewport;
  return { ...options, loadAllResources: screenshots, ...(viewport && { viewport }) };
}

/**
 * The rendered page's HTML as page.content() serialises it, refused with SCRAPE_TOO_LARGE past
 * `maxBytes`. It is measured in Chromium, so a script that grows the DOM without bound never
 * sends this process more than the limit (a fetched body is bounded the same way).
 */
async function renderedHtml(page: Page, maxBytes: number): Promise<Buffer> {
  const html = await page.evaluate((max) => {
    const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
    const serialised = doctype + (document.documentElement?.outerHTML ?? '');
    // A character is at least one byte: a longer serialisation is over the limit.
    return serialised.length > max ? serialised.length : serialised;
  }, maxBytes);
  const body = typeof html === 'string' ? Buffer.from(html) : undefined;
  if (!body || body.byteLength > maxBytes) {
    throw new AppError('SCRAPE_TOO_LARGE', `${page.url()} rendered to more than the ${maxBytes}-byte limit of HTML`);
  }
  return body;
}

/**
 * A response Chromium did not render as HTML (JSON, plain text, a PDF), refused with
 * SCRAPE_TOO_LARGE past `maxBytes` before its body crosses to this process: by its declared
 * length, then by what Chromium received (the body is only read when both are within the limit).
 * Chromium decodes a compressed body, so what it hands over is measured once more.
 */
async function responseBody(response: Response, maxBytes: number): Promise<Buffer> {
  const tooLarge = (size: number) => new AppError('SCRAPE_TOO_LARGE', `${response.url()} is ${size} bytes, over the ${maxBytes}-byte limit`);
  const declared = Number(await response.headerValue('content-length'));
  if (declared > maxBytes) throw tooLarge(declared);
  const { responseBodySize } = await response.request().sizes();
  if (responseBodySize > maxBytes) throw tooLarge(responseBodySize);
  const body = await response.body();
  if (body.byteLength > maxBytes) throw tooLarge(body.byteLength);
  return body;
}

function joinWarnings(...warnings: (string | undefined)[]): string | undefined {
  const present = warnings.filter(Boolean);
  return present.length > 0 ? present.join(' ') : undefined;
}

/** Renders pages in Chromium; every socket it opens goes through a per-job filtering proxy. */
export class BrowserScraper {
  constructor(
    private readonly gate: PublicUrlGate,
    private readonly pool: BrowserPool,
    private readonly config: BrowserScraperConfig,
  ) {}

  /**
   * Renders a page, runs its actions, takes the screenshot format, and reads the content.
   * `turn`: whose turn its processing waits for (a crawl's page yields to pages a client waits on; teams take turns).
   */
  async scrape(url: string, options: ScrapeOptions, deadline: number, cancel: AbortSignal | undefined, save: SaveImage, turn: ProcessingTurn = {}): Promise<ScrapedPage> {
    return this.open(url, setupOf(options), deadline, cancel, async ({ page, response, network, timing, remainingMs }) => {
      const limits = { maxHeight: this.config.maxCaptureHeight, remainingMs, network };
      let started = performance.now();
      const actions = options.actions?.length ? await runActions(page, options.actions, limits) : undefined;
      const actionsMs = Math.round(performance.now() - started);

      started = performance.now();
      const shot = options.formats.find((f) => f.startsWith('screenshot'));
      const quality = options.screenshot?.quality;
      const format = quality === undefined ? { format: 'png' as const } : { format: 'jpeg' as const, quality };
      const capture = shot ? await capturePage(page, { ...format, fullPage: shot === 'screenshot@fullPage' }, limits) : undefined;
      const branding = options.branding ? await readBranding(page) : undefined;
      const captureMs = Math.round(performance.now() - started);

      const contentType = response?.headers()['content-type'] ?? 'text/html';
      const isHtml = /html/i.test(contentType);
      const body = isHtml ? await renderedHtml(page, this.config.maxBytes) : response ? await responseBody(response, this.config.maxBytes) : Buffer.alloc(0);
      const finalUrl = page.url();
      const content = await this.config.process(body, isHtml ? 'text/html; charset=utf-8' : contentType, finalUrl, options, {
        deadline,
        ...(cancel && { cancel }),
        fetchMs: timing.navigationMs + timing.waitMs + (actions ? actionsMs : 0) + captureMs,
        turn,
      });
      const warning = joinWarnings(content.warning, capture?.warning);
      return {
        finalUrl,
        statusCode: response?.status() ?? 200,
        contentType,
        renderer: 'browser',
        content: { ...content, ...(warning && { warning }) },
        ...(capture && { screenshot: await save(capture.image) }),
        ...(branding && { branding }),
        ...(actions && {
          actions: { screenshots: await Promise.all(actions.images.map(save)), scrapes: actions.scrapes, javascriptReturns: actions.javascriptReturns },
        }),
        timing: { ...timing, ...(actions && { actionsMs }), ...(capture && { captureMs }), ...content.timing },
      };
    });
  }

  /** Renders a page and captures it as POST /v1/screenshot asks. */
  async screenshot(url: string, request: ScreenshotRequest, deadline: number, cancel?: AbortSignal): Promise<ScreenshotResult> {
    return this.open(url, request.setup, deadline, cancel, async ({ page, response, viewport, network, timing, remainingMs }) => {
      const started = performance.now();
      const capture = await capturePage(page, request, { maxHeight: this.config.maxCaptureHeight, remainingMs, network });
      const captureMs = Math.round(performance.now() - started);
      return {
        image: capture.image,
        details: {
          viewport: { ...viewport, fullPage: request.fullPage },
          page: { url: page.url(), statusCode: response?.status() ?? 200, title: await page.title() },
          timing: { ...timing, captureMs },
          ...(capture.warning && { warning: capture.warning }),
        },
      };
    });
  }

  /**
   * Opens `url` in a fresh context behind its own filtering proxy, waits for it to settle, and
   * hands it to `use`; context and proxy are closed afterwards whatever happens.
   */
  private async open<T>(url: string, setup: PageSetup, deadline: number, cancel: AbortSignal | undefined, use: (opened: OpenedPage) => Promise<T>): Promise<T> {
    const target = this.gate.parse(url);
    await this.gate.resolve(target.hostname, Number(target.port) || defaultPort(target.protocol));
    const { signal, timedOut, remainingMs } = deadlineSignal(deadline, cancel);
    const proxy = await FilteringProxy.start(this.gate);
    let rendering = false;
    try {
      const { options, viewport } = contextOptions(setup, proxy.url, this.config.userAgent);
      return await this.pool.withContext(
        options,
        async (context, crashed) => {
          rendering = true;
          const abort = () => void context.close().catch(() => {});
          signal.addEventListener('abort', abort, { once: true });
          try {
            // Raced, not only ended by the close: a page asked for while its context closes
            // neither opens nor fails (Playwright 1.65).
            const opened = await abortable(AbortSignal.any([signal, crashed]), () => this.load(context, target, setup, proxy, remainingMs));
            return await use({ ...opened, viewport, remainingMs });
          } finally {
            signal.removeEventListener('abort', abort);
          }
        },
        signal,
      );
    } catch (err) {
      // Processing names its own timeout.
      if (timedOut() && !(err instanceof AppError && err.code === 'SCRAPE_TIMEOUT')) {
        throw new AppError('SCRAPE_TIMEOUT', rendering ? `Timed out rendering ${url}` : `Timed out waiting for a free browser page to render ${url}`);
      }
      throw err;
    } finally {
      await proxy.close();
    }
  }

  private async load(
    context: BrowserContext,
    target: URL,
    setup: PageSetup,
    proxy: FilteringProxy,
    remainingMs: () => number,
  ): Promise<Pick<OpenedPage, 'page' | 'response' | 'network' | 'timing'>> {
    await blockRequests(context, setup);
    const page = await context.newPage();
    const network = new NetworkActivity(page);
    let lastNavigation = target.href;
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) lastNavigation = r.url();
    });

    const started = performance.now();
    let response: Response | null;
    try {
      response = await page.goto(target.href, { waitUntil: 'load', timeout: remainingMs() });
    } catch (err) {
      const code = proxy.failureFor(lastNavigation);
      if (code) throw new AppError(code, `Could not load ${lastNavigation}: ${code === 'URL_BLOCKED' ? 'not a public address' : 'connection failed'}`);
      throw err;
    }
    const proxyError = response?.headers()[PROXY_ERROR_HEADER];
    if (proxyError && isErrorCode(proxyError)) {
      throw new AppError(proxyError, `Could not load ${response!.url()}: ${proxyError === 'URL_BLOCKED' ? 'not a public address' : 'connection failed'}`);
    }
    const navigationMs = Math.round(performance.now() - started);

    await network.quiet(Math.min(NETWORK_QUIET_MAX_MS, remainingMs()));
    if (setup.waitFor > 0) await page.waitForTimeout(Math.min(setup.waitFor, remainingMs()));
    const waitMs = Math.round(performance.now() - started) - navigationMs;
    return { page, response, network, timing: { navigationMs, waitMs } };
  }
}
