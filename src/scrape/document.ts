/** Output formats a scrape can ask for (API.md, "POST /v1/scrape"). */
export const FORMATS = ['markdown', 'text', 'html', 'rawHtml', 'links', 'screenshot', 'screenshot@fullPage', 'json'] as const;
export type Format = (typeof FORMATS)[number];
