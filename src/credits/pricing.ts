/** Credit prices (API.md, "Credits"). Pure, so workflows may import it. */
export const PRICES = {
  page: 1,
  browserRender: 1,
  screenshot: 1,
  json: 4,
  map: 1,
  searchResult: 2,
  searchResultScraped: 5,
  extractPage: 5,
  screenshotCapture: 1,
} as const;

export interface PageCharge {
  renderer: 'http' | 'browser';
  screenshot: boolean;
  json: boolean;
}

/** What one scraped page costs: 1, +1 for a browser render, +1 for a screenshot, +4 for json. */
export function pageCredits(c: PageCharge): number {
  return PRICES.page + (c.renderer === 'browser' ? PRICES.browserRender : 0) + (c.screenshot ? PRICES.screenshot : 0) + (c.json ? PRICES.json : 0);
}

/** What one returned search result costs: 2; 5 when its page was scraped; +4 with the json format. */
export function searchResultCredits(formats: readonly string[]): number {
  if (formats.length === 0) return PRICES.searchResult;
  return PRICES.searchResultScraped + (formats.includes('json') ? PRICES.json : 0);
}

/** LLM tokens an extract includes, and the tokens each further credit pays for. */
export const EXTRACT_TOKENS = { included: 2_000, perCredit: 1_000 } as const;

/** What an extract costs: 5 per page read, +1 per started 1,000 LLM tokens beyond the first 2,000. */
export function extractCredits(pagesRead: number, llmTokens: number): number {
  return PRICES.extractPage * pagesRead + Math.ceil(Math.max(0, llmTokens - EXTRACT_TOKENS.included) / EXTRACT_TOKENS.perCredit);
}
