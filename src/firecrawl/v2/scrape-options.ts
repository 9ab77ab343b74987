import { z } from 'zod';
import { extractSpecFields, refineExtractSchema } from '../../scrape/extract-spec-fields';
import { actionsSchema } from '../../scrape/actions';
import type { Format } from '../../scrape/document';
import { clientTags, scrapeOptionsShape, type ScrapeOptions } from '../../scrape/scrape-options';
import { isValidSelector } from './page-markup';

/** Firecrawl v2's default `maxAge`: a stored copy up to two days old answers. */
export const V2_DEFAULT_MAX_AGE_MS = 2 * 24 * 60 * 60 * 1000;

/** Format names v2 accepts as plain strings (`json` and `attributes` need their object form). */
export const V2_STRING_FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'images', 'screenshot', 'summary', 'changeTracking', 'product', 'menu', 'branding', 'text'] as const;
export type V2StringFormat = (typeof V2_STRING_FORMATS)[number];

const viewportSchema = z.strictObject({
  width: z.number().int().min(100).max(3840).describe('CSS pixels.'),
  height: z.number().int().min(100).max(3840).describe('CSS pixels.'),
});

const jsonFormatSchema = z
  .strictObject({
    type: z.literal('json'),
    ...extractSpecFields,
  })
  .describe('Fill a JSON Schema and/or answer a prompt from the page (the engines of POST /v1/extract).');

const screenshotFormatSchema = z
  .strictObject({
    type: z.literal('screenshot'),
    /** Capture the whole page rather than the viewport. */
    fullPage: z.boolean().default(false).describe('Capture the whole page, cut at SCREENSHOT_MAX_HEIGHT with a warning.'),
    /** JPEG quality; present, the image is a JPEG. */
    quality: z.number().int().min(1).max(100).optional().describe('JPEG quality 1-100; without it the image is a PNG.'),
    /** The browser window's size for this page. */
    viewport: viewportSchema.optional().describe('Window size in CSS pixels; default 1280×800.'),
  })
  .describe('A screenshot of the rendered page; its URL needs no key until it expires.');

const changeTrackingFormatSchema = z
  .strictObject({
    type: z.literal('changeTracking'),
    /** How changes are described: a git-style diff of the markdown, and/or a field-by-field JSON comparison. */
    modes: z.array(z.enum(['git-diff', 'json'])).max(2).default([]).describe('"git-diff": a unified diff of the markdown; "json": the schema/prompt extraction of both copies, field by field.'),
    /** JSON Schema of the `json` mode's comparison. */
    schema: extractSpecFields.schema,
    /** What the `json` mode compares, in words (needs an LLM without a schema). */
    prompt: extractSpecFields.prompt,
    /** Separate comparison histories per tag: a copy is compared only with earlier copies of the same tag. */
    tag: z.string().min(1).max(200).optional().describe('Compare only with earlier copies scraped with the same tag.'),
  })
  .describe("Compare with this team's previous stored copy of the URL.");

const attributesFormatSchema = z
  .strictObject({
    type: z.literal('attributes'),
    /** Which attribute of which elements to read. */
    selectors: z
      .array(z.strictObject({ selector: z.string().min(1).max(500), attribute: z.string().min(1).max(200) }))
      .min(1)
      .max(50),
  })
  .describe('Values of an attribute on the elements a CSS selector matches (read from the raw HTML).');

const questionFormatSchema = z
  .strictObject({ type: z.literal('question'), question: z.string().trim().min(1).max(2_000) })
  .describe("`answer`: the page's answer to the question. Without an LLM, the page's most relevant passage, quoted; with one, a grounded answer.");

const highlightsFormatSchema = z
  .strictObject({ type: z.literal('highlights'), query: z.string().trim().min(1).max(2_000) })
  .describe("`highlights`: the main content's passages most relevant to the query, quoted whole, best first.");

const queryFormatSchema = z
  .strictObject({
    type: z.literal('query'),
    prompt: z.string().trim().min(1).max(2_000),
    mode: z.enum(['freeform', 'directQuote']).default('freeform').describe('"directQuote": the answer is a quote from the page (checked); "freeform": an answer in words (needs an LLM, else a quote).'),
  })
  .describe('Deprecated in Firecrawl for question/highlights: `answer` to the prompt.');

/** Formats without options; screenshot and changeTracking objects have their own schemas (all fields defaulted). */
const plainFormatObjectSchema = z
  .strictObject({ type: z.enum(['markdown', 'html', 'rawHtml', 'links', 'images', 'summary', 'product', 'menu', 'branding', 'text']) })
  .describe('A format without options, in object form.');

/** The object form of the formats that need options, for the error that names one as a string. */
const OBJECT_ONLY_FORMATS = new Map([
  ['json', '{"type": "json", "schema": {...}} and/or "prompt"'],
  ['attributes', '{"type": "attributes", "selectors": [{"selector": "...", "attribute": "..."}]}'],
  ['question', '{"type": "question", "question": "..."}'],
  ['highlights', '{"type": "highlights", "query": "..."}'],
  ['query', '{"type": "query", "prompt": "...", "mode": "freeform" | "directQuote"}'],
]);

/**
 * Formats firecrawl-js declares that this deployment does not produce, and why: refused by
 * name, never dropped in silence.
 */
const FORMATS_NOT_SERVED = new Map([
  ['audio', "Firecrawl's audio format is one audio file extracted from the page's media (such as a video site's soundtrack), which this deployment does not produce; a page's <audio> sources are in rawHtml"],
  ['video', "Firecrawl's video format is one video file extracted from the page, which this deployment does not produce; a page's <video> sources are in rawHtml"],
]);

const notServed = (name: unknown): string | undefined => {
  const why = typeof name === 'string' ? FORMATS_NOT_SERVED.get(name) : undefined;
  return why && `the "${name}" format is not served here: ${why}.`;
};

const OBJECT_FORMATS = [jsonFormatSchema, screenshotFormatSchema, changeTrackingFormatSchema, attributesFormatSchema, questionFormatSchema, highlightsFormatSchema, queryFormatSchema, plainFormatObjectSchema] as const;

/** Every `type` an object format may have, for the refusal of any other. */
const OBJECT_FORMAT_TYPES = OBJECT_FORMATS.flatMap((f) => [...f.shape.type._zod.values].map(String));

/** One entry of v2 `formats`: a name, or an object with its options. */
export const v2FormatSchema = z.union([
  z.enum(V2_STRING_FORMATS, {
    error: (issue) => {
      const objectForm = typeof issue.input === 'string' ? OBJECT_ONLY_FORMATS.get(issue.input) : undefined;
      return objectForm ? `"${String(issue.input)}" takes options, so it is given as an object: ${objectForm}` : notServed(issue.input);
    },
  }),
  z.discriminatedUnion('type', OBJECT_FORMATS, {
    error: (issue) => {
      const type = typeof issue.input === 'object' && issue.input !== null ? (issue.input as { type?: unknown }).type : undefined;
      return notServed(type) ?? `unknown format type ${JSON.stringify(type)}; the object formats are ${OBJECT_FORMAT_TYPES.map((t) => `"${t}"`).join(', ')}`;
    },
  }),
]);
export type V2Format = z.infer<typeof v2FormatSchema>;

/** Only the default PDF parser: its text layer, every page (no OCR, modes or page limits here). */
const pdfParserSchema = z.union([z.literal('pdf'), z.strictObject({ type: z.literal('pdf') })]);

/** Scrape options in v2 form: POST /v2/scrape without `url`, and v2 crawl/batch `scrapeOptions`. */
export const v2ScrapeOptionsShape = {
  formats: z.array(v2FormatSchema).min(1).max(20).default(['markdown']).describe('Output formats; only these appear in the document.'),
  onlyMainContent: scrapeOptionsShape.onlyMainContent,
  includeTags: scrapeOptionsShape.includeTags,
  excludeTags: scrapeOptionsShape.excludeTags,
  headers: scrapeOptionsShape.headers,
  waitFor: scrapeOptionsShape.waitFor,
  timeout: scrapeOptionsShape.timeout,
  mobile: scrapeOptionsShape.mobile,
  skipTlsVerification: scrapeOptionsShape.skipTlsVerification,
  removeBase64Images: scrapeOptionsShape.removeBase64Images,
  blockAds: scrapeOptionsShape.blockAds,
  location: scrapeOptionsShape.location,
  actions: actionsSchema.optional(),
  parsers: z.array(pdfParserSchema).max(1).optional().describe('["pdf"] (the default): a PDF becomes markdown from its text layer. Parser options (OCR modes, maxPages) and [] are refused.'),
  maxAge: z
    .number()
    .int()
    .min(0)
    .default(V2_DEFAULT_MAX_AGE_MS)
    .describe('Accept a stored copy of the page this many milliseconds old (default two days); 0 always fetches.'),
  storeInCache: z.boolean().default(true).describe('false: this copy is never served to a later scrape through maxAge.'),
  proxy: z.enum(['basic', 'auto']).optional().describe('Only "basic"/"auto" (a direct connection); stealth proxies are a Firecrawl cloud feature.'),
  engine: scrapeOptionsShape.engine,
  ...clientTags,
};

type V2ScrapeOptionsInput = z.infer<z.ZodObject<typeof v2ScrapeOptionsShape>>;

/** Rules between v2 fields, for every schema that embeds v2 scrape options (`prefix` locates them). */
export function refineV2ScrapeOptions(o: V2ScrapeOptionsInput, ctx: z.RefinementCtx, prefix: (string | number)[] = []): void {
  const at = (...path: (string | number)[]) => [...prefix, ...path];
  if (o.waitFor > o.timeout / 2) {
    ctx.addIssue({ code: 'custom', path: at('waitFor'), message: `waitFor (${o.waitFor}) must be at most half of timeout (${o.timeout})` });
  }
  const names = o.formats.map(formatName);
  for (const name of new Set(names)) {
    if (names.filter((n) => n === name).length > 1) ctx.addIssue({ code: 'custom', path: at('formats'), message: `the ${name} format is given more than once` });
  }
  if (names.includes('question') && names.includes('query')) {
    ctx.addIssue({ code: 'custom', path: at('formats'), message: 'question and query both answer in `answer`; give one of them' });
  }
  if (names.includes('changeTracking') && !names.includes('markdown')) {
    ctx.addIssue({ code: 'custom', path: at('formats'), message: 'the changeTracking format compares markdown; add "markdown" to formats' });
  }
  o.formats.forEach((f, i) => {
    if (typeof f === 'string') return;
    if (f.type === 'json') {
      if (!f.schema && !f.prompt) ctx.addIssue({ code: 'custom', path: at('formats', i), message: 'the json format needs a schema, a prompt, or both' });
      refineExtractSchema(f.schema, ctx, at('formats', i, 'schema'));
    }
    if (f.type === 'changeTracking') {
      if (f.modes.includes('json') && names.includes('json')) {
        ctx.addIssue({ code: 'custom', path: at('formats', i), message: "changeTracking's json mode extracts with its own schema; it cannot be combined with the json format here" });
      }
      if (f.modes.includes('json') && !f.schema && !f.prompt) {
        ctx.addIssue({ code: 'custom', path: at('formats', i), message: 'the json mode of changeTracking needs a schema, a prompt, or both' });
      }
      refineExtractSchema(f.schema, ctx, at('formats', i, 'schema'));
    }
    if (f.type === 'attributes') {
      f.selectors.forEach((s, j) => {
        if (!isValidSelector(s.selector)) ctx.addIssue({ code: 'custom', path: at('formats', i, 'selectors', j, 'selector'), message: 'not a valid CSS selector' });
      });
    }
  });
  const needsBrowser = o.waitFor > 0 || o.mobile || Boolean(o.actions?.length) || names.includes('screenshot') || names.includes('branding');
  if (o.engine === 'http' && needsBrowser) {
    ctx.addIssue({ code: 'custom', path: at('engine'), message: 'waitFor, mobile, actions, screenshots and branding need the browser; use engine "auto" or "browser"' });
  }
  if (o.parsers && o.parsers.length === 0) {
    ctx.addIssue({ code: 'custom', path: at('parsers'), message: 'PDFs are always parsed here; omit parsers or send ["pdf"]' });
  }
}

/** v2 scrape options on their own (a crawl's or batch's `scrapeOptions`). */
export const v2ScrapeOptionsSchema = z
  .strictObject(v2ScrapeOptionsShape)
  .superRefine((o, ctx) => refineV2ScrapeOptions(o, ctx))
  .meta({ id: 'V2ScrapeOptions' });
export type V2ScrapeOptions = z.infer<typeof v2ScrapeOptionsSchema>;

/** Body of POST /v2/scrape. */
export const v2ScrapeRequestSchema = z
  .strictObject({
    url: z.string().min(1).max(8192).describe('The page to scrape (http or https).'),
    ...v2ScrapeOptionsShape,
  })
  .superRefine((o, ctx) => refineV2ScrapeOptions(o, ctx));
export type V2ScrapeRequest = z.infer<typeof v2ScrapeRequestSchema>;

/** A v2 format's name. */
export type V2FormatName = V2StringFormat | 'json' | 'attributes' | 'question' | 'highlights' | 'query';

/** A format's name, whether it came as a string or an object. */
export function formatName(f: V2Format): V2FormatName {
  return typeof f === 'string' ? f : f.type;
}

/** The changeTracking format's options, normalized. */
export interface ChangeTrackingSpec {
  /** git-diff and/or json. */
  modes: ('git-diff' | 'json')[];
  /** JSON Schema of the json mode. */
  schema?: Record<string, unknown>;
  /** Prompt of the json mode. */
  prompt?: string;
  /** Comparison history this copy belongs to. */
  tag?: string;
}

/** The question or query format's options, normalized. */
export interface AnswerSpec {
  prompt: string;
  /** freeform: an answer in words where an LLM can give one; directQuote: a quote from the page. */
  mode: 'freeform' | 'directQuote';
}

/** The screenshot format's options, normalized. */
export interface ScreenshotSpec {
  /** The whole page rather than the viewport. */
  fullPage: boolean;
  /** JPEG quality; absent, a PNG. */
  quality?: number;
  /** Window size in CSS pixels. */
  viewport?: { width: number; height: number };
}

/**
 * What the v2 document shows, beyond what the internal scrape stores: kept with the job
 * (JSON-serialisable) so a document can be rebuilt from a stored page at any time.
 */
export interface V2OutputSpec {
  /** The v2 format names asked for, in order. */
  formats: V2FormatName[];
  /** Options of the screenshot format, when asked for. */
  screenshot?: ScreenshotSpec;
  /** Options of the changeTracking format, when asked for. */
  changeTracking?: ChangeTrackingSpec;
  /** Selectors of the attributes format, when asked for. */
  attributes?: { selector: string; attribute: string }[];
  /** What `answer` answers (the question format, or the query format's prompt and mode). */
  answer?: AnswerSpec;
  /** What `highlights` are picked for (the highlights format's query). */
  highlights?: { query: string };
  /** Whether stored copies of this scrape may answer later scrapes (`storeInCache`). */
  storeInCache: boolean;
}

/** The internal options the workflows take, and what the v2 document shows. */
export interface V2ScrapePlan {
  options: ScrapeOptions;
  output: V2OutputSpec;
}

/**
 * Turns v2 scrape options into the internal options the existing workflows take. Formats v2
 * derives from the page (images, attributes, product, menu) ask the scrape to keep the raw HTML; summary,
 * changeTracking and the answer formats ask for markdown, which they read.
 */
export function planV2Scrape(v2: V2ScrapeOptions): V2ScrapePlan {
  const names = v2.formats.map(formatName);
  const internal = new Set<Format>();
  for (const name of names) {
    if (name === 'markdown' || name === 'html' || name === 'rawHtml' || name === 'links' || name === 'text') internal.add(name);
    if (name === 'images' || name === 'attributes' || name === 'product' || name === 'menu') internal.add('rawHtml');
    // The answer formats read the page's text, which a scrape of its markdown stores alongside.
    if (name === 'summary' || name === 'changeTracking' || name === 'question' || name === 'highlights' || name === 'query') internal.add('markdown');
  }
  const screenshot = screenshotSpecOf(v2.formats);
  if (screenshot) internal.add(screenshot.fullPage ? 'screenshot@fullPage' : 'screenshot');
  // The plain "changeTracking" string is the object form with its defaults (Firecrawl's own examples use it).
  const tracking =
    v2.formats.find((f): f is Extract<V2Format, { type: 'changeTracking' }> => typeof f !== 'string' && f.type === 'changeTracking') ??
    (names.includes('changeTracking') ? { type: 'changeTracking' as const, modes: [] } : undefined);
  // changeTracking's json mode is the page's json extraction, with the tracking schema (never both: see refine).
  const json = v2.formats.find((f): f is Extract<V2Format, { type: 'json' }> => typeof f !== 'string' && f.type === 'json') ?? (tracking?.modes.includes('json') ? tracking : undefined);
  if (json) internal.add('json');
  const attributes = v2.formats.find((f): f is Extract<V2Format, { type: 'attributes' }> => typeof f !== 'string' && f.type === 'attributes');
  const answer = answerSpecOf(v2.formats);
  const highlights = v2.formats.find((f): f is Extract<V2Format, { type: 'highlights' }> => typeof f !== 'string' && f.type === 'highlights');

  const options: ScrapeOptions = {
    formats: [...internal],
    onlyMainContent: v2.onlyMainContent,
    ...(v2.includeTags && { includeTags: v2.includeTags }),
    ...(v2.excludeTags && { excludeTags: v2.excludeTags }),
    ...(v2.headers && { headers: v2.headers }),
    waitFor: v2.waitFor,
    timeout: v2.timeout,
    mobile: v2.mobile,
    skipTlsVerification: v2.skipTlsVerification,
    removeBase64Images: v2.removeBase64Images,
    blockAds: v2.blockAds,
    ...(v2.location && { location: v2.location }),
    // A copy that answered a change-tracking scrape would compare with itself, and a stored copy
    // has no branding unless its scrape asked for it: always fetch.
    maxAge: tracking || names.includes('branding') ? 0 : v2.maxAge,
    ...(names.includes('branding') && { branding: true }),
    engine: v2.engine,
    ...(v2.actions && { actions: v2.actions }),
    ...(screenshot && (screenshot.quality !== undefined || screenshot.viewport) && {
      screenshot: { ...(screenshot.quality !== undefined && { quality: screenshot.quality }), ...(screenshot.viewport && { viewport: screenshot.viewport }) },
    }),
    ...(json && { jsonOptions: { ...(json.schema && { schema: json.schema }), ...(json.prompt && { prompt: json.prompt }), ...('systemPrompt' in json && json.systemPrompt && { systemPrompt: json.systemPrompt }) } }),
  };
  const output: V2OutputSpec = {
    formats: names,
    ...(screenshot && { screenshot }),
    ...(tracking && {
      changeTracking: {
        modes: tracking.modes,
        ...(tracking.schema && { schema: tracking.schema }),
        ...(tracking.prompt && { prompt: tracking.prompt }),
        ...(tracking.tag && { tag: tracking.tag }),
      },
    }),
    ...(attributes && { attributes: attributes.selectors }),
    ...(answer && { answer }),
    ...(highlights && { highlights: { query: highlights.query } }),
    storeInCache: v2.storeInCache,
  };
  return { options, output };
}

function answerSpecOf(formats: V2Format[]): AnswerSpec | undefined {
  for (const f of formats) {
    if (typeof f === 'string') continue;
    // Firecrawl's question format is a grounded answer, which is the query format's freeform mode.
    if (f.type === 'question') return { prompt: f.question, mode: 'freeform' };
    if (f.type === 'query') return { prompt: f.prompt, mode: f.mode };
  }
  return undefined;
}

function screenshotSpecOf(formats: V2Format[]): ScreenshotSpec | undefined {
  for (const f of formats) {
    if (f === 'screenshot') return { fullPage: false };
    // `{type: "screenshot"}` parses as the screenshot object (its fields have defaults), never the plain form.
    if (typeof f !== 'string' && f.type === 'screenshot' && 'fullPage' in f) {
      return { fullPage: f.fullPage, ...(f.quality !== undefined && { quality: f.quality }), ...(f.viewport && { viewport: f.viewport }) };
    }
  }
  return undefined;
}

/**
 * What a v2 job row keeps in `jobs.options`: the internal options the workflows read, plus
 * `v2`, how its pages are shown (change tracking reads the tag from `v2.changeTracking.tag`).
 */
export function jobOptionsWithV2(plan: V2ScrapePlan): ScrapeOptions & { v2: V2OutputSpec } {
  return { ...plan.options, v2: plan.output };
}
