import { isAppShell } from '../html/app-shell';
import { baseUrlOf } from '../html/base-url';
import { cleanPage, keepIncluded } from '../html/clean-page';
import { extractLinks } from '../html/extract-links';
import { extractMetadata } from '../html/extract-metadata';
import { extractMainContent } from '../html/main-content';
import { parsePage } from '../html/parse-document';
import { scanPage } from '../html/scan-page';
import { toMarkdown } from '../html/to-markdown';
import { toText } from '../html/to-text';
import type { ProcessedContent, ProcessOptions } from './processed-content';

/**
 * One parse serves every stage. Metadata and links are read before cleaning strips the head and
 * scripts; main content, text, HTML and markdown all read the cleaned tree.
 */
export function processHtml(rawHtml: string, pageUrl: string, options: ProcessOptions): ProcessedContent {
  const started = performance.now();
  const document = parsePage(rawHtml, pageUrl);
  const scan = scanPage(document);
  const base = baseUrlOf(scan.baseHref, pageUrl);
  const metadata = extractMetadata(document, scan, base);
  const links = extractLinks(scan.anchors, base);
  const cleaned = cleanPage(document, scan, base, options);
  // A shell is judged by the whole cleaned page: what includeTags leaves may be small by choice.
  const appShell = isAppShell(scan.scripts, cleaned);
  const body = options.includeTags?.length ? keepIncluded(document, options.includeTags) : cleaned;
  const cleanedAt = performance.now();
  const main = options.onlyMainContent ? extractMainContent(document, base) : null;
  const root = main?.root ?? body;
  const mainAt = performance.now();
  const text = toText(root);
  const html = options.formats.includes('html') ? root.innerHTML : undefined;
  const markdown = toMarkdown(root);
  const done = performance.now();
  return {
    markdown,
    text,
    ...(html !== undefined && { html }),
    rawHtml,
    links,
    metadata,
    appShell,
    ...(main && { mainContent: { method: main.method, ratio: main.ratio } }),
    timing: {
      cleanMs: Math.round(cleanedAt - started),
      ...(main && { mainContentMs: Math.round(mainAt - cleanedAt) }),
      convertMs: Math.round(done - mainAt),
    },
  };
}
