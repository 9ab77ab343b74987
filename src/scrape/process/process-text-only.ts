import { decodeBody } from '../decode-body';
import { baseUrlOf } from '../html/base-url';
import { linksOf } from '../html/extract-links';
import { contentKind } from './content-kind';
import type { ProcessedContent } from './processed-content';
import { visibleText } from './visible-text';

/** Most characters of text the fallback returns. */
const TEXT_ONLY_MAX_CHARS = 2_000_000;

/** What the fallback is told of the page besides its body. */
export interface TextOnlyPage {
  contentType: string;
  /** Why full processing did not give the page (for the warning). */
  reason: string;
  /** Where the page came from: its links resolve against it. */
  pageUrl: string;
  /** Most links kept (MAX_LINKS_PER_PAGE); unset, every link. */
  maxLinks?: number | undefined;
}

/**
 * What is left of a page when full processing ran out of its budget or failed: its visible
 * text, as both text and markdown, and its links, found in one pass linear in the body (see
 * visibleText), the text cut at TEXT_ONLY_MAX_CHARS. A crawl still follows such a page's links.
 */
export function processTextOnly(body: Uint8Array, { contentType, reason, pageUrl, maxLinks }: TextOnlyPage): ProcessedContent {
  const started = performance.now();
  const kind = contentKind(contentType, body);
  const readable = kind === 'html' || kind === 'json' || kind === 'xml' || kind === 'text';
  const decoded = readable ? decodeBody(body, contentType, kind === 'html').text : '';
  const { text, title, truncated, hrefs, baseHref } =
    kind === 'html'
      ? visibleText(decoded, TEXT_ONLY_MAX_CHARS)
      : { text: decoded.slice(0, TEXT_ONLY_MAX_CHARS), title: undefined, truncated: decoded.length > TEXT_ONLY_MAX_CHARS, hrefs: [], baseHref: undefined };
  const found = linksOf(hrefs, baseUrlOf(baseHref, pageUrl), maxLinks);
  const returned = !text ? 'no text could be read' : truncated ? `only its plain text is returned, cut at ${TEXT_ONLY_MAX_CHARS} characters` : 'only its plain text is returned';
  return {
    markdown: text,
    text,
    rawHtml: kind === 'html' ? decoded : '',
    links: found.links,
    metadata: { ...(title && { title }), ...(found.total > found.links.length && { linksTotal: found.total, linksTruncated: true }) },
    mainContent: { method: 'text-only', ratio: 1 },
    warning: `Processing the page ${reason}; ${returned}.`,
    timing: { textOnlyMs: Math.round(performance.now() - started) },
  };
}
