import { z } from 'zod';
import { PAGE_TYPES } from '../../db/page-metadata';

/** `metadata` of a Document (API.md, "Document"); documentation only, the code builds it. */
export const metadataSchema = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  language: z.string().optional(),
  keywords: z.string().optional(),
  robots: z.string().optional(),
  ogTitle: z.string().optional(),
  ogDescription: z.string().optional(),
  ogUrl: z.string().optional(),
  ogImage: z.string().optional(),
  ogSiteName: z.string().optional(),
  ogLocale: z.string().optional(),
  publishedTime: z.string().optional(),
  modifiedTime: z.string().optional(),
  favicon: z.string().optional(),
  sourceURL: z.string().describe('Exactly the URL requested.'),
  url: z.string().describe('The URL that answered, after redirects.'),
  statusCode: z.number().int().describe("The target's own status; a 404 page is still a 200 API response."),
  contentType: z.string().optional(),
  scrapeId: z.string(),
  creditsUsed: z.number().int(),
  renderer: z.enum(['http', 'browser']).describe('Which path fetched the page.'),
  pageType: z.enum(PAGE_TYPES).optional().describe('What kind of HTML page this is, from its structured data, URL and structure.'),
  mainContent: z
    .object({
      method: z.enum(['region', 'readability', 'full-page', 'text-only', 'none']),
      ratio: z.number(),
      pageTypeEvidence: z.array(z.string()).optional().describe('The signals that decided pageType.'),
      passedOver: z
        .array(z.object({ method: z.string(), reason: z.string() }))
        .optional()
        .describe('Extractors tried before `method`, and why each was not used (what it threw, or how little it kept).'),
    })
    .optional()
    .describe('Present when onlyMainContent ran: the extractor used and the share of text kept.'),
  timing: z.record(z.string(), z.number()).describe('Milliseconds per stage.'),
  numPages: z.number().int().optional().describe('PDF page count.'),
  linksTotal: z.number().int().optional().describe('How many distinct links the page has; present when that is more than MAX_LINKS_PER_PAGE, and `links` holds the first of them.'),
  linksTruncated: z.boolean().optional().describe('True when `links` (and what a crawl follows) stops at MAX_LINKS_PER_PAGE.'),
  cacheState: z.literal('hit').optional(),
  cachedAt: z.string().optional(),
  error: z.string().optional(),
});

export const documentSchema = z
  .object({
    markdown: z.string().optional(),
    text: z.string().optional(),
    html: z.string().optional(),
    rawHtml: z.string().optional(),
    links: z.array(z.string()).optional(),
    screenshot: z.string().optional().describe('Image URL (screenshot or screenshot@fullPage); no key needed until it expires.'),
    json: z.unknown().optional(),
    actions: z
      .object({
        screenshots: z.array(z.string()).describe('Image URLs of the screenshot actions, in order.'),
        scrapes: z.array(z.object({ url: z.string(), html: z.string() })).describe('URL and HTML at each scrape action.'),
        javascriptReturns: z.array(z.object({ type: z.string(), value: z.unknown() })).describe('What each executeJavascript action returned (typeof and value).'),
      })
      .optional()
      .describe('Present when the request had actions.'),
    warning: z.string().optional(),
    metadata: metadataSchema,
  })
  .meta({ id: 'Document' });
