import type { ScrapedPage } from '../scrape/scraped-page';
import type { PageRow } from '../db/page-row';

/** A stored page re-used for another job (`maxAge`), in the shape a fresh scrape has. */
export function cachedPageAsScraped(row: PageRow): ScrapedPage {
  const { sourceURL: _s, url, statusCode, contentType, renderer, mainContent, timing: _t, ...pageMetadata } = row.metadata!;
  return {
    finalUrl: url,
    statusCode,
    contentType: contentType ?? '',
    renderer,
    content: {
      markdown: row.markdown ?? '',
      text: row.text ?? '',
      ...(row.html !== null && { html: row.html }),
      rawHtml: row.rawHtml ?? '',
      links: row.links ?? [],
      metadata: pageMetadata,
      ...(mainContent && { mainContent }),
      ...(row.warning && { warning: row.warning }),
      timing: {},
    },
    ...(row.screenshot && { screenshot: row.screenshot }),
    cachedAt: (row.scrapedAt ?? row.createdAt).toISOString(),
    timing: {},
  };
}
