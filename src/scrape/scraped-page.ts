import type { BrandingProfile } from '../db/branding-profile';
import type { ActionResults, Renderer } from '../db/page-metadata';
import type { ProcessedContent } from './process/processed-content';

/** Everything one fetch or render produced, before it is stored. */
export interface ScrapedPage {
  /** The URL that answered, after redirects. */
  finalUrl: string;
  statusCode: number;
  contentType: string;
  /** The Retry-After header, when the site sent one (429/503). */
  retryAfter?: string;
  renderer: Renderer;
  content: ProcessedContent;
  screenshot?: string;
  actions?: ActionResults;
  /** The branding format's reading of the rendered page. */
  branding?: BrandingProfile;
  /** Set when the content is a stored copy (`maxAge`): when that copy was made. */
  cachedAt?: string;
  /** Milliseconds per stage, fetch or render included. */
  timing: Record<string, number>;
}
