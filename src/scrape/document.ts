import type { HtmlMetadata } from './html/extract-metadata';
import type { MainContentMethod, PassedOver } from './main-content/extract-main-content';
import type { PageType } from './main-content/page-type';

/** Output formats a scrape can ask for (API.md, "POST /v1/scrape"). */
export const FORMATS = ['markdown', 'text', 'html', 'rawHtml', 'links', 'screenshot', 'screenshot@fullPage', 'json'] as const;
export type Format = (typeof FORMATS)[number];

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

/** One page as the API returns it; only the formats asked for are present. */
export interface Document {
  markdown?: string;
  text?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  screenshot?: string;
  json?: unknown;
  actions?: ActionResults;
  warning?: string;
  metadata: PageMetadata;
}
