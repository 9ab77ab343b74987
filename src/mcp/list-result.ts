import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { budgetedResult } from './result-budget';

export interface ListPage {
  /** Fields shown before the lists (status, counts). */
  head: Record<string, unknown>;
  /** This page of each list, by its key in the result; all start at `offset` and read on together. */
  lists: Record<string, unknown[]>;
  /** Position of each list's first item in the whole list. */
  offset: number;
  /** Whether a list goes on after this page. */
  more: boolean;
  /** The call that reads the lists from a position. */
  continueAt(offset: number): string;
  /** What to do when text inside an item was cut. */
  readItem: string;
}

/**
 * A page of lists within the result budget. Whole items are dropped from the end before any
 * item's text is cut, and the result names the call that continues where it stopped: from the
 * fewest items any cut list kept, so nothing is skipped.
 */
export function listResult(page: ListPage, budget: number): CallToolResult {
  const keys = Object.keys(page.lists);
  const longest = Math.max(0, ...keys.map((k) => page.lists[k]!.length));
  const value = { ...page.head, ...(page.offset > 0 && { offset: page.offset }), ...page.lists };
  let cut = false;
  const result = budgetedResult(value, budget, (cuts) => {
    cut = true;
    const kept = cuts.filter((c) => keys.includes(c.path)).map((c) => c.kept);
    const steps = [];
    if (kept.length > 0 || page.more) steps.push(page.continueAt(page.offset + (kept.length > 0 ? Math.min(...kept) : longest)));
    const inside = keys.filter((k) => cuts.some((c) => c.path.startsWith(`${k}[`)));
    if (inside.length > 0) steps.push(`text inside ${inside.join(' and ')} was cut too: ${page.readItem}`);
    return steps.join(' Also, ');
  });
  if (!cut && page.more) result.content.push({ type: 'text', text: `More ${keys.join(' and ')} follow: ${page.continueAt(page.offset + longest)}` });
  return result;
}
