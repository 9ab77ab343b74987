import { staticContent } from '../html/app-shell';
import { baseUrlOf } from '../html/base-url';
import { cleanPage, keepIncluded } from '../html/clean-page';
import { extractLinks } from '../html/extract-links';
import type { HtmlMetadata } from '../../db/page-metadata';
import { extractMetadata } from '../html/extract-metadata';
import { parsePage } from '../html/parse-document';
import { scanPage } from '../html/scan-page';
import { toMarkdown } from '../html/to-markdown';
import { toText } from '../html/to-text';
import { extractMainContent } from '../main-content/extract-main-content';
import { recognisePage } from '../main-content/recognise-page';
import type { ProcessedContent, ProcessOptions } from './processed-content';

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

const NO_OWN_CONTENT =
  "This page's HTML holds nothing but its header, footer and menus, which are not its main content; if its scripts draw the content, scrape it with engine \"browser\".";

/**
 * One parse serves every stage. Metadata and links are read before cleaning strips the head and
 * scripts; main content, text, HTML and markdown all read the cleaned tree. A stage that throws
 * on a page degrades to its fallback and says so in `warning`: a real page never fails here.
 */
export function processHtml(rawHtml: string, pageUrl: string, options: ProcessOptions): ProcessedContent {
  const started = performance.now();
  const warnings: string[] = [];
  const stage = <T>(name: string, run: () => T, fallback: () => T): T => {
    try {
      return run();
    } catch (err) {
      warnings.push(`${name} failed on this page (${describe(err)}); ${name} fell back.`);
      return fallback();
    }
  };
  const document = parsePage(rawHtml, options.maxNodes);
  const scan = scanPage(document);
  const base = baseUrlOf(scan.baseHref, pageUrl);
  const metadata = stage<HtmlMetadata>('metadata', () => extractMetadata(document, scan, base), () => ({}));
  const found = stage('links', () => extractLinks(scan.anchors, base, options.maxLinks), () => ({ links: [], total: 0 }));
  const cleaned = stage('cleaning', () => cleanPage(document, scan, base, options), () => document.body);
  // Judged by the whole cleaned page: what includeTags leaves may be small, or chrome, by choice.
  const { appShell, chromeOnly } = staticContent(scan.scripts, cleaned);
  // Unrecognised, a page is read as a service page: the region keeps every section of it.
  const page = stage('page type', () => recognisePage(scan, cleaned, pageUrl), () => ({ type: 'service' as const, evidence: ['page type failed'], jsonLd: [] }));
  const body = options.includeTags?.length ? keepIncluded(document, options.includeTags) : cleaned;
  const cleanedAt = performance.now();
  // The same steps again, for main-content extractors after the first (the first prunes `document`).
  const prepareAgain = (): Document => {
    const copy = parsePage(rawHtml, options.maxNodes);
    try {
      cleanPage(copy, scanPage(copy), base, options);
    } catch {
      // Reported in `warning` by the first pass, which failed the same way.
    }
    if (options.includeTags?.length) keepIncluded(copy, options.includeTags);
    return copy;
  };
  // What includeTags picked is the content, chrome or not.
  const main = options.onlyMainContent ? extractMainContent(document, page, page.jsonLd, prepareAgain, chromeOnly && !options.includeTags?.length) : null;
  if (main?.method === 'none') warnings.push(NO_OWN_CONTENT);
  const root = main?.root ?? body;
  const mainAt = performance.now();
  const text = stage('text', () => toText(root), () => root.textContent ?? '');
  const html = options.formats.includes('html') ? root.innerHTML : undefined;
  const markdown = stage('markdown', () => toMarkdown(root), () => text);
  const done = performance.now();
  return {
    markdown,
    text,
    ...(html !== undefined && { html }),
    rawHtml,
    links: found.links,
    metadata: { ...metadata, pageType: page.type, ...(found.total > found.links.length && { linksTotal: found.total, linksTruncated: true }) },
    appShell,
    ...(main && {
      mainContent: {
        method: main.method,
        ratio: main.ratio,
        pageTypeEvidence: page.evidence,
        ...(main.passedOver.length > 0 && { passedOver: main.passedOver }),
      },
    }),
    ...(warnings.length > 0 && { warning: warnings.join(' ') }),
    timing: {
      cleanMs: Math.round(cleanedAt - started),
      ...(main && { mainContentMs: Math.round(mainAt - cleanedAt) }),
      convertMs: Math.round(done - mainAt),
    },
  };
}
