import type { LlmConfig } from '../../config/env';
import { charge } from '../../credits/ledger';
import { PRICES } from '../../credits/pricing';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { chunkText } from '../../extract/llm/chunk-text';
import { LlmClient } from '../../extract/llm/llm-client';

/** The summary format needs an LLM; without one, this documented 422. */
export function requireLlmForSummary(llm: LlmConfig | undefined): asserts llm is LlmConfig {
  if (llm) return;
  throw new AppError(
    'LLM_NOT_CONFIGURED',
    'The summary format needs an LLM, and none is configured. Leave "summary" out of formats, or set LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY if the server wants one) on the API and worker.',
  );
}

/** Share of the model's context the page may fill; the rest is the instructions and the answer. */
const PAGE_SHARE_OF_CONTEXT = 0.5;

const SUMMARY_SCHEMA = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] } as const;

/**
 * A few sentences about the page, from its markdown, charged like the json format once per page
 * (`summary:<pageId>`). A page longer than the model can read is summarised from its beginning,
 * and the result says so.
 */
export async function summarizePage(db: Db, llm: LlmConfig, page: { id: string; teamId: string; jobId: string; markdown: string }): Promise<{ summary: string; warning?: string }> {
  const chunks = chunkText(page.markdown, Math.floor(llm.contextTokens * PAGE_SHARE_OF_CONTEXT));
  const reply = await new LlmClient(llm).json(
    [
      { role: 'system', content: 'You summarise web pages. Answer with JSON {"summary": "..."}: three to five plain sentences on what the page says, in the page\'s language.' },
      { role: 'user', content: chunks[0]! },
    ],
    { name: 'page_summary', schema: SUMMARY_SCHEMA },
  );
  let summary: unknown;
  try {
    summary = (JSON.parse(reply.content) as { summary?: unknown }).summary;
  } catch {
    summary = undefined;
  }
  if (typeof summary !== 'string') throw new AppError('LLM_ERROR', `The LLM at ${llm.baseUrl} did not answer with a summary`);
  await db.transaction((tx) => charge(tx, { teamId: page.teamId, amount: PRICES.json, operation: 'summary', jobId: page.jobId, idempotencyKey: `summary:${page.id}` }));
  return { summary, ...(chunks.length > 1 && { warning: `The page was longer than the LLM's context; the summary covers its first ${chunks[0]!.length} characters.` }) };
}
