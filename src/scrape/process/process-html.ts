import * as cheerio from 'cheerio';
import { isAppShell } from '../html/app-shell';
import { documentBaseUrl } from '../html/base-url';
import { cleanHtml } from '../html/clean-html';
import { extractLinks } from '../html/extract-links';
import { extractMetadata } from '../html/extract-metadata';
import { extractMainContent } from '../html/main-content';
import { parseDocument } from '../html/parse-document';
import { toMarkdown } from '../html/to-markdown';
import { toText } from '../html/to-text';
import type { ProcessedContent, ProcessOptions } from './processed-content';

/** htmlparser2 is several times faster than parse5 and forgiving enough for scraping. */
const PARSER_OPTIONS = { xml: { xmlMode: false, decodeEntities: true } } as const;

/** Metadata and links are read from the page before cleaning strips the head and scripts. */
export function processHtml(rawHtml: string, pageUrl: string, options: ProcessOptions): ProcessedContent {
  const started = performance.now();
  const $ = cheerio.load(rawHtml, PARSER_OPTIONS as cheerio.CheerioOptions);
  const base = documentBaseUrl($, pageUrl);
  const metadata = extractMetadata($, base);
  const links = extractLinks($, base);
  const scriptCount = $('script').length;
  const cleaned = cleanHtml($, base, options);
  const appShell = isAppShell(scriptCount, $('body')[0]);
  const cleanedAt = performance.now();
  const main = options.onlyMainContent ? extractMainContent(cleaned, base) : null;
  const root = main?.root ?? parseDocument(cleaned, base).body;
  const mainAt = performance.now();
  const text = toText(root);
  const html = main ? root.innerHTML : cleaned;
  const markdown = toMarkdown(root);
  const done = performance.now();
  return {
    markdown,
    text,
    html,
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
