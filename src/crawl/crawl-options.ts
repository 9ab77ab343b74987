import { z } from 'zod';
import type { V2OutputSpec } from '../firecrawl/v2/scrape-options';
import { webhookOption, type WebhookTarget as WebhookTargetOf } from './webhooks/webhook-option';
import { clientTags, refineScrapeOptions, scrapeOptionsShape, scrapeOptionsSchema } from '../scrape/scrape-options';

export const WEBHOOK_EVENTS = ['started', 'page', 'completed', 'failed'] as const;

/** Include/exclude path patterns: valid regular expressions, a hundred at most. */
export const regexList = z
  .array(
    z
      .string()
      .min(1)
      .max(1000)
      .refine((pattern) => {
        try {
          new RegExp(pattern);
          return true;
        } catch {
          return false;
        }
      }, 'not a valid regular expression'),
  )
  .max(100);

const crawlWebhook = webhookOption(WEBHOOK_EVENTS, 'Where to POST crawl events: a URL, or {url, headers?, metadata?, events?}. Signed with X-Webhook-Signature.');
export const webhookSchema = crawlWebhook.schema;

/** A crawl's or batch's webhook in one shape, whichever the caller used. */
export type WebhookTarget = WebhookTargetOf<(typeof WEBHOOK_EVENTS)[number]>;

function normaliseWebhook(w: z.infer<typeof webhookSchema> | undefined): WebhookTarget | undefined {
  return w === undefined ? undefined : crawlWebhook.normalise(w);
}

export const crawlRequestSchema = z
  .strictObject({
    url: z.string().min(1).max(8192).describe('Where the crawl starts (http or https).'),
    limit: z.number().int().min(1).max(100_000).default(10_000).describe('Most pages to scrape; clamped to what the team\'s credits cover.'),
    maxDepth: z.number().int().min(0).max(1_000).optional().describe('Link hops from the start URL (default 10).'),
    maxDiscoveryDepth: z.number().int().min(0).max(1_000).optional().describe('Alias of maxDepth.'),
    includePaths: regexList.optional().describe('Only follow URLs whose path matches one of these regexes.'),
    excludePaths: regexList.optional().describe('Never follow URLs whose path matches one of these regexes.'),
    regexOnFullURL: z.boolean().default(false).describe('Match include/exclude patterns against the full URL instead of the path.'),
    allowExternalLinks: z.boolean().default(false).describe('Follow links to other sites.'),
    allowSubdomains: z.boolean().default(false).describe('Follow links to subdomains of the start host.'),
    crawlEntireDomain: z.boolean().optional().describe('Also follow links outside the start URL\'s path (default false).'),
    allowBackwardLinks: z.boolean().optional().describe('Alias of crawlEntireDomain.'),
    ignoreSitemap: z.boolean().default(false).describe('Do not seed the crawl from sitemaps.'),
    ignoreRobotsTxt: z.boolean().default(false).describe('Do not honour robots.txt.'),
    ignoreQueryParameters: z.boolean().default(false).describe('Treat URLs that differ only in their query as the same page.'),
    delay: z.number().min(0).max(60).optional().describe('Seconds between requests to one host.'),
    maxConcurrency: z.number().int().min(1).max(100).optional().describe('Pages fetched at once (default 10).'),
    scrapeOptions: scrapeOptionsSchema.prefault({}).describe('How each page is scraped: the body of POST /v1/scrape without url.'),
    webhook: webhookSchema.optional(),
    ...clientTags,
  })
  .superRefine((o, ctx) => {
    if (o.maxDepth !== undefined && o.maxDiscoveryDepth !== undefined && o.maxDepth !== o.maxDiscoveryDepth) {
      ctx.addIssue({ code: 'custom', path: ['maxDiscoveryDepth'], message: 'maxDepth and its alias maxDiscoveryDepth disagree' });
    }
    if (o.crawlEntireDomain !== undefined && o.allowBackwardLinks !== undefined && o.crawlEntireDomain !== o.allowBackwardLinks) {
      ctx.addIssue({ code: 'custom', path: ['allowBackwardLinks'], message: 'crawlEntireDomain and its alias allowBackwardLinks disagree' });
    }
  });
export type CrawlRequest = z.infer<typeof crawlRequestSchema>;

export const batchScrapeRequestSchema = z
  .strictObject({
    urls: z.array(z.string().min(1).max(8192)).min(1).max(1_000).describe('Pages to scrape.'),
    ...scrapeOptionsShape,
    webhook: webhookSchema.optional(),
    ignoreInvalidURLs: z.boolean().default(false).describe('Skip invalid or blocked URLs (listed in invalidURLs) instead of refusing the batch.'),
    ...clientTags,
  })
  .superRefine((o, ctx) => refineScrapeOptions(o, ctx));
export type BatchScrapeRequest = z.infer<typeof batchScrapeRequestSchema>;

export type CrawlMode = 'crawl' | 'batch';

/** A crawl's options with aliases resolved and defaults applied; stored on the job. */
export interface CrawlOptions {
  mode: CrawlMode;
  /** The start URL, or for a batch the first URL. */
  url: string;
  /** A batch's URLs. */
  urls?: string[];
  limit: number;
  maxDepth: number;
  includePaths: string[];
  excludePaths: string[];
  regexOnFullURL: boolean;
  allowExternalLinks: boolean;
  allowSubdomains: boolean;
  crawlEntireDomain: boolean;
  ignoreSitemap: boolean;
  ignoreRobotsTxt: boolean;
  ignoreQueryParameters: boolean;
  delayMs: number;
  maxConcurrency: number;
  scrapeOptions: z.infer<typeof scrapeOptionsSchema>;
  webhook?: WebhookTarget;
  /** Scrape the start URL and the URLs its sitemaps list, following no links (v2 `sitemap: "only"`). */
  sitemapOnly?: boolean;
  /** Set by /v2: which v2 formats each page's document shows (see firecrawl/v2/document). */
  v2Output?: V2OutputSpec;
}

export const DEFAULT_CRAWL_CONCURRENCY = 10;
export const DEFAULT_MAX_DEPTH = 10;

export function crawlOptionsOf(r: CrawlRequest): CrawlOptions {
  const webhook = normaliseWebhook(r.webhook);
  return {
    mode: 'crawl',
    url: r.url,
    limit: r.limit,
    maxDepth: r.maxDepth ?? r.maxDiscoveryDepth ?? DEFAULT_MAX_DEPTH,
    includePaths: r.includePaths ?? [],
    excludePaths: r.excludePaths ?? [],
    regexOnFullURL: r.regexOnFullURL,
    allowExternalLinks: r.allowExternalLinks,
    allowSubdomains: r.allowSubdomains,
    crawlEntireDomain: r.crawlEntireDomain ?? r.allowBackwardLinks ?? false,
    ignoreSitemap: r.ignoreSitemap,
    ignoreRobotsTxt: r.ignoreRobotsTxt,
    ignoreQueryParameters: r.ignoreQueryParameters,
    delayMs: Math.round((r.delay ?? 0) * 1000),
    maxConcurrency: r.maxConcurrency ?? DEFAULT_CRAWL_CONCURRENCY,
    scrapeOptions: r.scrapeOptions,
    ...(webhook && { webhook }),
  };
}

/** A batch scrape runs as a crawl of its URLs at depth 0 that follows no links. */
export function batchOptionsOf(r: BatchScrapeRequest, urls: string[]): CrawlOptions {
  const { urls: _u, webhook: _w, ignoreInvalidURLs: _i, origin: _o, integration: _n, ...scrapeOptions } = r;
  const webhook = normaliseWebhook(r.webhook);
  return {
    mode: 'batch',
    url: urls[0]!,
    urls,
    limit: urls.length,
    maxDepth: 0,
    includePaths: [],
    excludePaths: [],
    regexOnFullURL: false,
    allowExternalLinks: false,
    allowSubdomains: false,
    crawlEntireDomain: false,
    ignoreSitemap: true,
    ignoreRobotsTxt: true,
    ignoreQueryParameters: false,
    delayMs: 0,
    maxConcurrency: DEFAULT_CRAWL_CONCURRENCY,
    scrapeOptions,
    ...(webhook && { webhook }),
  };
}

export const mapRequestSchema = z.strictObject({
  url: z.string().min(1).max(8192).describe('The site to map.'),
  search: z.string().max(500).optional().describe('Order links by relevance to this text, and keep only those that match it.'),
  ignoreSitemap: z.boolean().default(false),
  sitemapOnly: z.boolean().default(false).describe('Return only URLs listed in sitemaps.'),
  includeSubdomains: z.boolean().default(false),
  limit: z.number().int().min(1).max(30_000).default(5_000),
  timeout: z.number().int().min(1_000).max(300_000).optional().describe('Milliseconds the map may take (default 60000).'),
  ...clientTags,
});
export type MapRequest = z.infer<typeof mapRequestSchema>;
