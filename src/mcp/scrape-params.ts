import { z } from 'zod';
import { AppError } from '../errors';
import { servedEnum, strictParams, type NotServed } from './not-served';

/** Why the scrape parameters firecrawl-mcp has and this service lacks are refused. */
export const SCRAPE_NOT_SERVED: NotServed = {
  redactPII: 'PII redaction is a Firecrawl cloud feature',
  zeroDataRetention: 'this service stores every page it scrapes',
  lockdown: 'lockdown mode is a Firecrawl cloud feature',
  profile: 'saved browser profiles are a Firecrawl cloud feature',
  pdfOptions: 'a PDF is read whole from its text layer; page limits are not offered',
  alexandria: "Alexandria, Firecrawl cloud's provider catalogue, is not available",
  requestId: 'it keys Alexandria calls, which are not available',
  toolDetail: 'it selects Alexandria tool detail; Alexandria is not available',
  domainTools: 'it lists Alexandria tools; Alexandria is not available',
};

const FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'images', 'screenshot', 'json', 'query', 'summary', 'changeTracking', 'branding', 'text'] as const;
const FORMATS_NOT_SERVED: NotServed = {
  audio: 'audio extraction is a Firecrawl cloud feature',
};
const ACTIONS_NOT_SERVED: NotServed = { generatePDF: 'PDF rendering of a page is not offered; a "screenshot" action captures it' };
const PROXY_NOT_SERVED: NotServed = {
  stealth: 'stealth proxies are a Firecrawl cloud feature; this service connects directly ("basic" or "auto")',
  enhanced: 'enhanced proxies are a Firecrawl cloud feature; this service connects directly ("basic" or "auto")',
};

const jsonSchema = z.record(z.string(), z.any());

/** firecrawl-mcp's action: one flat object per step (our API checks which fields each type takes). */
const actionParams = strictParams({
  type: servedEnum(['wait', 'click', 'write', 'press', 'scroll', 'screenshot', 'scrape', 'executeJavascript'], ACTIONS_NOT_SERVED),
  selector: z.string().optional(),
  milliseconds: z.number().optional(),
  text: z.string().optional(),
  key: z.string().optional(),
  direction: z.enum(['up', 'down']).optional(),
  script: z.string().optional(),
  fullPage: z.boolean().optional(),
  quality: z.number().optional().describe('Ours: a JPEG screenshot of this quality.'),
  all: z.boolean().optional().describe('Ours: click every match.'),
});

/**
 * Scrape arguments as firecrawl-mcp names and shapes them (its `scrapeParamsSchema`), for what
 * POST /v2/scrape serves; `toV2ScrapeOptions` turns them into its body. The API validates the
 * values (ranges, rules between fields) and its 400 comes back as the tool's error.
 */
export const scrapeParamsShape = {
  formats: z
    .array(servedEnum(FORMATS, FORMATS_NOT_SERVED))
    .optional()
    .describe(
      'Output formats (default ["markdown"]). json needs jsonOptions; query needs queryOptions and answers in `answer` (a quote of the page, or an LLM\'s answer when the service has one); screenshot gives an image URL (screenshotOptions); summary needs an LLM configured on the service; branding reads colours, fonts and logo from the rendered page; changeTracking (with markdown) compares with your previous copy of the page (changeTrackingOptions); images and text are ours.',
    ),
  jsonOptions: strictParams({ prompt: z.string().optional(), schema: jsonSchema.optional() }).optional().describe('With the json format: a JSON Schema to fill, a prompt, or both.'),
  queryOptions: strictParams({
    prompt: z.string().describe('The question about the page.'),
    mode: z.enum(['freeform', 'directQuote']).optional().describe('directQuote: a quote of the page; freeform (default): an answer in words when the service has an LLM, else a quote.'),
  })
    .optional()
    .describe('With the query format.'),
  screenshotOptions: strictParams({
    fullPage: z.boolean().optional(),
    quality: z.number().optional().describe('JPEG quality 1-100; without it a PNG.'),
    viewport: strictParams({ width: z.number(), height: z.number() }).optional(),
  })
    .optional()
    .describe('With the screenshot format.'),
  changeTrackingOptions: strictParams({
    modes: z.array(z.enum(['git-diff', 'json'])).optional().describe('git-diff: a diff of the markdown; json: the schema/prompt fields compared.'),
    schema: jsonSchema.optional(),
    prompt: z.string().optional(),
    tag: z.string().optional().describe('Compare only with earlier copies of this tag.'),
  })
    .optional()
    .describe('Ours, with the changeTracking format: how to compare (by default only changeStatus).'),
  parsers: z.array(z.enum(['pdf'])).optional().describe('["pdf"] (the default): a PDF becomes markdown from its text layer.'),
  onlyMainContent: z.boolean().optional().describe('Keep the main content only (default true).'),
  includeTags: z.array(z.string()).optional().describe('CSS selectors; only matching elements are kept.'),
  excludeTags: z.array(z.string()).optional().describe('CSS selectors of elements to remove.'),
  waitFor: z.number().optional().describe('Milliseconds to wait after load (renders in the browser).'),
  actions: z.array(actionParams).optional().describe('Browser steps before the page is read: wait, click, write, press, scroll, screenshot, scrape, executeJavascript.'),
  mobile: z.boolean().optional(),
  skipTlsVerification: z.boolean().optional(),
  removeBase64Images: z.boolean().optional(),
  location: strictParams({ country: z.string().optional(), languages: z.array(z.string()).optional() }).optional(),
  storeInCache: z.boolean().optional().describe('false: this copy never answers a later scrape through maxAge.'),
  maxAge: z.number().optional().describe('Accept a stored copy of the page this many milliseconds old (default two days; 0 fetches it).'),
  proxy: servedEnum(['basic', 'auto'], PROXY_NOT_SERVED).optional().describe('A direct connection either way.'),
};

/** Scrape options nested in another tool's arguments (crawl and search `scrapeOptions`). */
export const scrapeOptionsParams = strictParams(scrapeParamsShape, SCRAPE_NOT_SERVED);

export type ScrapeParams = z.infer<typeof scrapeOptionsParams>;

/** The formats whose options firecrawl-mcp passes beside `formats`, as v2 puts them into the format object. */
const FORMAT_OPTIONS = { json: 'jsonOptions', query: 'queryOptions', screenshot: 'screenshotOptions', changeTracking: 'changeTrackingOptions' } as const;

/**
 * The v2 scrape options for firecrawl-mcp-style arguments: a format with options becomes its
 * object (`{type: "json", schema}`). Options for a format not asked for are refused, not dropped.
 * `at` prefixes the paths of errors (`scrapeOptions.`).
 */
export function toV2ScrapeOptions(params: ScrapeParams, at = ''): Record<string, unknown> {
  const { formats, jsonOptions, queryOptions, screenshotOptions, changeTrackingOptions, ...rest } = params;
  const options = { json: jsonOptions, query: queryOptions, screenshot: screenshotOptions, changeTracking: changeTrackingOptions };
  const stray = (Object.keys(FORMAT_OPTIONS) as (keyof typeof FORMAT_OPTIONS)[]).filter((f) => options[f] && !(formats ?? ['markdown']).includes(f));
  if (stray.length > 0) {
    throw new AppError(
      'BAD_REQUEST',
      'Options were given for a format that formats does not ask for',
      stray.map((f) => ({ path: `${at}${FORMAT_OPTIONS[f]}`, message: `add "${f}" to ${at}formats, or leave ${FORMAT_OPTIONS[f]} out` })),
    );
  }
  const v2Format = (f: (typeof FORMATS)[number]) => {
    const given = Object.hasOwn(options, f) ? options[f as keyof typeof options] : undefined;
    // v2 has no plain "json" or "query": they always travel as their object, which says what it lacks.
    return given || f === 'json' || f === 'query' ? { type: f, ...given } : f;
  };
  return { ...rest, ...(formats && { formats: formats.map(v2Format) }) };
}
