import { z } from 'zod';
import { extractSpecFields, refineExtractSchema } from './extract-spec-fields';
import { actionsSchema } from './actions';
import { FORMATS } from './document';

/** Strings the Firecrawl SDK and its integrations add to every body. */
export const clientTags = {
  origin: z.string().max(200).optional().describe('Free-form client tag the Firecrawl SDK sends; ignored.'),
  integration: z.string().max(200).optional().describe('Free-form integration tag; ignored.'),
};

const selectorList = z.array(z.string().min(1).max(500)).max(100);

/** Scrape options: the body of POST /v1/scrape without `url`, and a crawl's `scrapeOptions`. */
export const scrapeOptionsShape = {
  formats: z
    .array(z.enum(FORMATS))
    .min(1)
    .default(['markdown'])
    .describe('Output formats; only these appear in the document.'),
  onlyMainContent: z.boolean().default(true).describe('Keep the main content only (by page type: the content region or Readability), dropping navigation, footers and other page chrome.'),
  includeTags: selectorList.optional().describe('CSS selectors; only matching elements are kept.'),
  excludeTags: selectorList.optional().describe('CSS selectors of elements to remove.'),
  headers: z.record(z.string().min(1), z.string()).optional().describe('Extra request headers (cookies, user agent, ...).'),
  waitFor: z.number().int().min(0).max(60_000).default(0).describe('Milliseconds to wait after load before reading the page; implies the browser. At most timeout/2.'),
  timeout: z.number().int().min(1_000).max(300_000).default(30_000).describe('Milliseconds the whole scrape may take.'),
  mobile: z.boolean().default(false).describe('Emulate a mobile device; implies the browser.'),
  skipTlsVerification: z.boolean().default(false).describe('Accept invalid TLS certificates.'),
  removeBase64Images: z.boolean().default(true).describe('Drop inline data: images.'),
  blockAds: z.boolean().default(true).describe('Block ad and tracker requests in the browser.'),
  location: z
    .strictObject({
      country: z.string().regex(/^[A-Za-z]{2}$/, 'ISO 3166-1 alpha-2 code').optional(),
      languages: z.array(z.string().min(2).max(35)).max(10).optional(),
    })
    .optional()
    .describe('Preferred locale; sent as Accept-Language.'),
  maxAge: z.number().int().min(0).default(0).describe('Accept a stored copy of the page this many milliseconds old; 0 always fetches.'),
  engine: z.enum(['auto', 'http', 'browser']).default('auto').describe('auto: plain HTTP, the browser when the page needs it.'),
  actions: actionsSchema.optional(),
  jsonOptions: z
    .strictObject(extractSpecFields)
    .optional()
    .describe('With the json format: a schema to fill, a prompt, or both; the same engines as /v1/extract read the page.'),
};

type ScrapeOptionsInput = z.infer<z.ZodObject<typeof scrapeOptionsShape>>;

/** Rules between fields, shared by every schema that embeds scrape options. */
export function refineScrapeOptions(o: ScrapeOptionsInput, ctx: z.RefinementCtx, prefix: (string | number)[] = []): void {
  if (o.waitFor > o.timeout / 2) {
    ctx.addIssue({ code: 'custom', path: [...prefix, 'waitFor'], message: `waitFor (${o.waitFor}) must be at most half of timeout (${o.timeout})` });
  }
  const wantsJson = o.formats.includes('json');
  if (wantsJson && !o.jsonOptions?.schema && !o.jsonOptions?.prompt) {
    ctx.addIssue({ code: 'custom', path: [...prefix, 'jsonOptions'], message: 'the json format needs jsonOptions with a schema, a prompt, or both' });
  }
  if (!wantsJson && o.jsonOptions) {
    ctx.addIssue({ code: 'custom', path: [...prefix, 'jsonOptions'], message: 'jsonOptions is only used with the json format; add "json" to formats' });
  }
  refineExtractSchema(o.jsonOptions?.schema, ctx, [...prefix, 'jsonOptions', 'schema']);

  if (o.formats.includes('screenshot') && o.formats.includes('screenshot@fullPage')) {
    ctx.addIssue({ code: 'custom', path: [...prefix, 'formats'], message: 'Ask for screenshot or screenshot@fullPage, not both' });
  }
  if (o.engine === 'http' && (o.waitFor > 0 || o.mobile || o.actions?.length || o.formats.some((f) => f.startsWith('screenshot')))) {
    ctx.addIssue({ code: 'custom', path: [...prefix, 'engine'], message: 'waitFor, mobile, actions and screenshots need the browser; use engine "auto" or "browser"' });
  }
}

export const scrapeOptionsSchema = z.strictObject(scrapeOptionsShape).superRefine((o, ctx) => refineScrapeOptions(o, ctx));

/** How the screenshot format is taken; only v2's screenshot object sets it (v1 takes PNGs at the default window). */
export interface ScreenshotSettings {
  /** JPEG quality 1-100; absent, a PNG. */
  quality?: number;
  /** The browser window in CSS pixels, for the whole render. */
  viewport?: { width: number; height: number };
}

/** The options a scrape runs with: v1's fields, plus settings only the v2 API sets. */
export type ScrapeOptions = z.infer<typeof scrapeOptionsSchema> & {
  screenshot?: ScreenshotSettings;
  /** v2's branding format: read the rendered page's colours, fonts and logo. */
  branding?: boolean;
};

export const scrapeRequestSchema = z
  .strictObject({
    url: z.string().min(1).max(8192).describe('The page to scrape (http or https).'),
    ...scrapeOptionsShape,
    ...clientTags,
  })
  .superRefine((o, ctx) => refineScrapeOptions(o, ctx));
export type ScrapeRequest = z.infer<typeof scrapeRequestSchema>;

/** The options a scrape job carries, without the client tags. */
export function scrapeOptionsOf(request: ScrapeRequest): ScrapeOptions {
  const { url: _url, origin: _origin, integration: _integration, ...options } = request;
  return options;
}
