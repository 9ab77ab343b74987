/**
 * What a stored page's JSON columns hold (`pages.metadata`, `pages.actions`): the page's own
 * metadata and how it was got. The scraper fills them; they are declared here, below it, because
 * the table stores them (a type two layers share lives in the lower one).
 */

/** The page-describing part of `metadata` (API.md, "Document"). */
export interface HtmlMetadata {
  title?: string;
  description?: string;
  language?: string;
  keywords?: string;
  robots?: string;
  ogTitle?: string;
  ogDescription?: string;
  ogUrl?: string;
  ogImage?: string;
  ogSiteName?: string;
  ogLocale?: string;
  publishedTime?: string;
  modifiedTime?: string;
  favicon?: string;
}

/** What kind of page this is; scrape/main-content/page-type.ts decides. */
export const PAGE_TYPES = ['article', 'forum', 'product', 'collection', 'listing', 'documentation', 'service'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

/**
 * How the main content was chosen (scrape/main-content/extract-main-content.ts):
 * - `region`: the content region with page chrome pruned, every section kept;
 * - `readability`: Mozilla Readability's article;
 * - `full-page`: the whole cleaned page, when nothing narrower holds enough;
 * - `text-only`: plain text of the raw page, when processing ran out of its budget;
 * - `none`: nothing, for a page with no text outside its header, footer and menus.
 */
export type MainContentMethod = 'region' | 'readability' | 'full-page' | 'text-only' | 'none';

export interface PassedOver {
  method: MainContentMethod;
  /** Why it was not used: what it threw, or how little it kept. */
  reason: string;
}

export type Renderer = 'http' | 'browser';

export interface MainContentInfo {
  method: MainContentMethod;
  ratio: number;
  /** The signals that decided `pageType`. */
  pageTypeEvidence?: string[];
  /** Extractors tried before `method`, and why each was not used. */
  passedOver?: PassedOver[];
}

/** Set on a page with more links than MAX_LINKS_PER_PAGE, whose `links` are the first of them. */
export interface LinkCount {
  /** How many distinct links the page has. */
  linksTotal?: number;
  linksTruncated?: boolean;
}

/** `metadata` of a Document: the page's own, then how we got it. */
export interface PageMetadata extends HtmlMetadata, LinkCount {
  /** Exactly the URL requested. */
  sourceURL: string;
  /** The URL that answered, after redirects. */
  url: string;
  statusCode: number;
  contentType?: string;
  scrapeId: string;
  creditsUsed: number;
  renderer: Renderer;
  /** What kind of page this is (HTML pages). */
  pageType?: PageType;
  mainContent?: MainContentInfo;
  /** Milliseconds per stage. */
  timing: Record<string, number>;
  numPages?: number;
  /** `hit` when a stored copy answered (`maxAge`), with the time it was made. */
  cacheState?: 'hit';
  cachedAt?: string;
  error?: string;
}

/** Metadata as stored; scrapeId and creditsUsed come from the page row when it is read. */
export type StoredMetadata = Omit<PageMetadata, 'scrapeId' | 'creditsUsed'>;

export interface ActionResults {
  screenshots: string[];
  scrapes: { url: string; html: string }[];
  javascriptReturns: { type: string; value: unknown }[];
}
