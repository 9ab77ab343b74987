import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { budgetedResult } from './result-budget';

export interface ListPage {
  /** Fields shown before the list (status, counts). */
  head: Record<string, unknown>;
  /** Key of the list in the result. */
  key: string;
  /** This page of the list. */
  items: unknown[];
  /** Position of `items[0]` in the whole list. */
  offset: number;
  /** Whether the whole list goes on after `items`. */
  more: boolean;
  /** The call that reads the list from a position. */
  continueAt(offset: number): string;
}

/**
 * A page of a list within the result budget. Whole items are dropped from the end before any
 * item's text is cut, and the result names the call that continues where it stopped.
 */
export function listResult(page: ListPage, budget: number): CallToolResult {
  const value = { ...page.head, ...(page.offset > 0 && { offset: page.offset }), [page.key]: page.items };
  let cut = false;
  const result = budgetedResult(value, budget, (cuts) => {
    cut = true;
    const kept = cuts.find((c) => c.path === page.key)?.kept ?? page.items.length;
    const steps = [];
    if (kept < page.items.length || page.more) steps.push(page.continueAt(page.offset + kept));
    if (cuts.some((c) => c.path.startsWith(`${page.key}[`))) steps.push(`text inside ${page.key} was cut too: fetch one item's page with firecrawl_scrape to read it whole.`);
    return steps.join(' Also, ');
  });
  if (!cut && page.more) result.content.push({ type: 'text', text: `More ${page.key} follow: ${page.continueAt(page.offset + page.items.length)}` });
  return result;
}
