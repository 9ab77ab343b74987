import { z } from 'zod';
import { crawlOptionsOf, regexList, webhookSchema, type CrawlOptions, type CrawlRequest } from '../../crawl/crawl-options';
import type { Format } from '../../scrape/document';
import { clientTags } from '../../scrape/scrape-options';
import { formatName, planV2Scrape, v2ScrapeOptionsSchema, type V2OutputSpec, type V2ScrapeOptions } from '../../firecrawl/v2/scrape-options';

/** The crawl options a prompt may choose (POST /v2/crawl/params-preview answers these). */
export const v2CrawlParamsShape = {
  includePaths: regexList.optional().describe('Only follow URLs whose path matches one of these regexes.'),
  excludePaths: regexList.optional().describe('Never follow URLs whose path matches one of these regexes.'),
  maxDiscoveryDepth: z.number().int().min(0).max(1_000).optional().describe('Link hops from the start URL (default 10); sitemap-listed pages count as one hop.'),
  sitemap: z
    .enum(['skip', 'include', 'only'])
    .optional()
    .describe('"include" (default): seed the crawl from sitemaps too; "skip": ignore sitemaps; "only": scrape the start URL and sitemap URLs, following no links.'),
  crawlEntireDomain: z.boolean().optional().describe("Also follow links outside the start URL's path (default false)."),
  allowSubdomains: z.boolean().optional().describe('Follow links to subdomains of the start host (default false).'),
  allowExternalLinks: z.boolean().optional().describe('Follow links to other sites (default false).'),
  ignoreQueryParameters: z.boolean().optional().describe('Treat URLs that differ only in their query as the same page (default false).'),
  limit: z.number().int().min(1).max(100_000).optional().describe("Most pages to scrape (default 10000); clamped to what the team's credits cover."),
};
export const v2CrawlParamsSchema = z.strictObject(v2CrawlParamsShape);
export type V2CrawlParams = z.infer<typeof v2CrawlParamsSchema>;

/** v2 formats a crawl or batch cannot produce: they are computed per scrape, not from a stored page. */
const SCRAPE_ONLY_FORMATS = ['summary', 'changeTracking'];

/** Refuses v2 formats that only POST /v2/scrape produces. */
export function refineJobFormats(scrapeOptions: V2ScrapeOptions, ctx: z.RefinementCtx, path: (string | number)[]): void {
  for (const name of scrapeOptions.formats.map(formatName)) {
    if (SCRAPE_ONLY_FORMATS.includes(name)) ctx.addIssue({ code: 'custom', path, message: `the ${name} format is only available on POST /v2/scrape, not in crawls or batches` });
  }
}

/** Firecrawl cloud's zero-data-retention mode; this service always stores pages, so only `false` is accepted. */
export const zeroDataRetentionField = z.literal(false, { error: 'zeroDataRetention is not available: this service stores every page it scrapes' }).optional();

/** Body of POST /v2/crawl. */
export const v2CrawlRequestSchema = z
  .strictObject({
    url: z.string().min(1).max(8192).describe('Where the crawl starts (http or https).'),
    prompt: z.string().min(1).max(2_000).optional().describe('What to crawl, in words: an LLM chooses the options not given explicitly (see params-preview). 422 without an LLM.'),
    ...v2CrawlParamsShape,
    regexOnFullURL: z.boolean().optional().describe('Match include/exclude patterns against the full URL instead of the path.'),
    ignoreRobotsTxt: z.boolean().optional().describe('Do not honour robots.txt.'),
    deduplicateSimilarURLs: z.boolean().optional().describe('Accepted for compatibility; URLs are always normalised (www., trailing slash, fragment) before de-duplication.'),
    delay: z.number().min(0).max(60).optional().describe('Seconds between requests to one host.'),
    maxConcurrency: z.number().int().min(1).max(100).optional().describe('Pages fetched at once (default 10).'),
    scrapeOptions: v2ScrapeOptionsSchema.prefault({}).describe('How each page is scraped: the v2 scrape options (formats summary and changeTracking excepted).'),
    webhook: webhookSchema.optional(),
    zeroDataRetention: zeroDataRetentionField,
    ...clientTags,
  })
  .superRefine((o, ctx) => refineJobFormats(o.scrapeOptions, ctx, ['scrapeOptions', 'formats']));
export type V2CrawlRequest = z.infer<typeof v2CrawlRequestSchema>;

/**
 * The internal crawl options of a v2 crawl request. Options the body sets win over those a
 * prompt chose (`fromPrompt`); the rest take the v1 defaults.
 */
export function v2CrawlOptionsOf(body: V2CrawlRequest, fromPrompt: V2CrawlParams = {}): CrawlOptions {
  const p: V2CrawlParams = { ...fromPrompt, ...Object.fromEntries(Object.entries(body).filter(([k, v]) => k in v2CrawlParamsShape && v !== undefined)) };
  const plan = planV2Scrape(body.scrapeOptions);
  const request: CrawlRequest = {
    url: body.url,
    limit: p.limit ?? 10_000,
    ...(p.maxDiscoveryDepth !== undefined && { maxDiscoveryDepth: p.maxDiscoveryDepth }),
    ...(p.includePaths && { includePaths: p.includePaths }),
    ...(p.excludePaths && { excludePaths: p.excludePaths }),
    regexOnFullURL: body.regexOnFullURL ?? false,
    allowExternalLinks: p.allowExternalLinks ?? false,
    allowSubdomains: p.allowSubdomains ?? false,
    crawlEntireDomain: p.crawlEntireDomain ?? false,
    ignoreSitemap: p.sitemap === 'skip',
    ignoreRobotsTxt: body.ignoreRobotsTxt ?? false,
    ignoreQueryParameters: p.ignoreQueryParameters ?? false,
    ...(body.delay !== undefined && { delay: body.delay }),
    ...(body.maxConcurrency !== undefined && { maxConcurrency: body.maxConcurrency }),
    scrapeOptions: plan.options,
    ...(body.webhook && { webhook: body.webhook }),
  };
  return { ...crawlOptionsOf(request), sitemapOnly: p.sitemap === 'only', v2Output: plan.output };
}

/** What a job submitted under /v1 shows under /v2: its v1 formats under their v2 names. */
export function v2OutputOfV1(formats: readonly Format[]): V2OutputSpec {
  const fullPage = formats.includes('screenshot@fullPage');
  const names = formats.map((f) => (f === 'screenshot@fullPage' ? 'screenshot' : f));
  return { formats: names, ...((fullPage || formats.includes('screenshot')) && { screenshot: { fullPage } }), storeInCache: true };
}
