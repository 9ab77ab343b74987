import { z } from 'zod';

/**
 * Scrape arguments as firecrawl-mcp names them (its `scrapeParamsSchema`), limited to what this
 * service serves; `toScrapeOptions` turns them into the scrape options of POST /v1/scrape. The
 * API validates the values (ranges, rules between fields) and its 400 comes back as the tool's error.
 */
export const scrapeParamsShape = {
  formats: z
    .array(z.enum(['markdown', 'text', 'html', 'rawHtml', 'links', 'screenshot', 'json']))
    .optional()
    .describe('Output formats (default markdown). json needs jsonOptions; screenshot gives an image URL.'),
  jsonOptions: z
    .object({ prompt: z.string().optional(), schema: z.record(z.string(), z.any()).optional() })
    .optional()
    .describe('With the json format: a JSON Schema to fill, a prompt, or both.'),
  screenshotOptions: z.object({ fullPage: z.boolean().optional() }).optional().describe('With the screenshot format: capture the whole page.'),
  onlyMainContent: z.boolean().optional().describe('Keep the main content only (default true).'),
  includeTags: z.array(z.string()).optional().describe('CSS selectors; only matching elements are kept.'),
  excludeTags: z.array(z.string()).optional().describe('CSS selectors of elements to remove.'),
  waitFor: z.number().optional().describe('Milliseconds to wait after load (renders in the browser).'),
  mobile: z.boolean().optional(),
  skipTlsVerification: z.boolean().optional(),
  removeBase64Images: z.boolean().optional(),
  location: z.object({ country: z.string().optional(), languages: z.array(z.string()).optional() }).optional(),
  maxAge: z.number().optional().describe('Accept a stored copy of the page this many milliseconds old (default 0: fetch it).'),
};

export type ScrapeParams = z.infer<z.ZodObject<typeof scrapeParamsShape>>;

/** The /v1 scrape options for firecrawl-style arguments (a full-page screenshot is its own format there). */
export function toScrapeOptions(params: ScrapeParams): Record<string, unknown> {
  const { formats, screenshotOptions, ...rest } = params;
  return {
    ...rest,
    ...(formats && { formats: formats.map((f) => (f === 'screenshot' && screenshotOptions?.fullPage ? 'screenshot@fullPage' : f)) }),
  };
}
