import type { ScrapeOptions } from '../scrape/scrape-options';

/**
 * Whether a page scraped with these options may enter the deployment-wide search index. Custom
 * headers (cookies, tokens) and actions can show content only this caller may see.
 */
export function indexableWith(options: Pick<ScrapeOptions, 'headers' | 'actions'>): boolean {
  return !options.headers && !options.actions?.length;
}

const ATX_HEADING = /^#{1,6}[ \t]+(.+?)[ \t#]*$/gm;

/** The headings of a page's markdown, one per line, for the index's middle weight. */
export function headingsOf(markdown: string): string {
  return Array.from(markdown.matchAll(ATX_HEADING), (m) => m[1]!).join('\n');
}
