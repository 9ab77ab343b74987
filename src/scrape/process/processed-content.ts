import type { HtmlMetadata, LinkCount, MainContentInfo, PageType } from '../../db/page-metadata';
import type { Format } from '../document';

/** What the processing stages make of one response body, before it is stored. */
export interface ProcessedContent {
  markdown: string;
  text: string;
  /** The cleaned HTML; of an HTML page, only when the html format is asked for. */
  html?: string;
  rawHtml: string;
  links: string[];
  metadata: HtmlMetadata & LinkCount & { numPages?: number; pageType?: PageType };
  mainContent?: MainContentInfo;
  warning?: string;
  /** Static HTML that only a browser would fill in (see isAppShell). */
  appShell?: boolean;
  /** Milliseconds spent in processing stages. */
  timing: Record<string, number>;
}

export interface ProcessOptions {
  /** Formats asked for; the cleaned HTML is serialised (and stored) only for `html`. */
  formats: readonly Format[];
  onlyMainContent: boolean;
  includeTags?: string[] | undefined;
  excludeTags?: string[] | undefined;
  removeBase64Images: boolean;
  /** Most links kept of a page (MAX_LINKS_PER_PAGE); the rest are counted. Absent: every link. */
  maxLinks?: number | undefined;
  /** Most elements and text nodes an HTML page's DOM may have (TooManyNodes past it). Absent: no bound. */
  maxNodes?: number | undefined;
}
