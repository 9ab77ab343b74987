import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiClient } from './api-client';
import { listResult } from './list-result';

/** Documents read per status call; the result budget usually keeps fewer. */
const PAGE_SIZE = 20;

/** A crawl's status and a page of its documents (v2 form) from `skip`, as firecrawl_check_crawl_status answers. */
export async function crawlStatusResult(api: ApiClient, id: string, skip: number, budget: number, notes: string[] = []): Promise<CallToolResult> {
  const { success: _success, next, data, ...status } = await api.get(`/v2/crawl/${encodeURIComponent(id)}?skip=${skip}&limit=${PAGE_SIZE}`);
  const result = listResult(
    {
      head: { id, ...status },
      lists: { data },
      offset: skip,
      more: next !== undefined,
      continueAt: (offset) => `call firecrawl_check_crawl_status with {"id": "${id}", "skip": ${offset}}.`,
      readItem: "fetch one page's URL with firecrawl_scrape to read it whole.",
    },
    budget,
  );
  result.content.unshift(...notes.map((text) => ({ type: 'text' as const, text })));
  return result;
}
