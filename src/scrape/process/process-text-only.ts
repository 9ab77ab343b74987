import { decodeBody } from '../decode-body';
import { contentKind } from './content-kind';
import type { ProcessedContent } from './processed-content';
import { visibleText } from './visible-text';

/** Most characters of text the fallback returns. */
const TEXT_ONLY_MAX_CHARS = 2_000_000;

/**
 * What is left of a page when full processing ran out of its budget or failed: its visible
 * text, as both text and markdown, found in time linear in the body (see visibleText) and cut
 * at TEXT_ONLY_MAX_CHARS. `reason` says why, in the warning.
 */
export function processTextOnly(body: Uint8Array, contentType: string, reason: string): ProcessedContent {
  const started = performance.now();
  const kind = contentKind(contentType, body);
  const readable = kind === 'html' || kind === 'json' || kind === 'xml' || kind === 'text';
  const decoded = readable ? decodeBody(body, contentType, kind === 'html').text : '';
  const { text, title, truncated } =
    kind === 'html' ? visibleText(decoded, TEXT_ONLY_MAX_CHARS) : { text: decoded.slice(0, TEXT_ONLY_MAX_CHARS), title: undefined, truncated: decoded.length > TEXT_ONLY_MAX_CHARS };
  const returned = !text ? 'no text could be read' : truncated ? `only its plain text is returned, cut at ${TEXT_ONLY_MAX_CHARS} characters` : 'only its plain text is returned';
  return {
    markdown: text,
    text,
    rawHtml: kind === 'html' ? decoded : '',
    links: [],
    metadata: title ? { title } : {},
    mainContent: { method: 'text-only', ratio: 1 },
    warning: `Processing the page ${reason}; ${returned}.`,
    timing: { textOnlyMs: Math.round(performance.now() - started) },
  };
}
