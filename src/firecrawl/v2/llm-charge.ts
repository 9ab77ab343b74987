import { charge, type CreditMovement } from '../../credits/ledger';
import { PRICES } from '../../credits/pricing';
import type { Db } from '../../db/client';
import type { PageRow } from '../../db/page-row';

/** The formats the configured LLM works on: question and query (`answer`), product, menu. */
export type LlmFormat = 'answer' | 'product' | 'menu';

/** Credits for each format the LLM worked on for a page: the json format's price. */
export const LLM_FORMAT_CREDITS = PRICES.json;

/**
 * The charge for a format the configured LLM worked on, once per page and format (`<format>:<pageId>`), however often the page is rendered.
 */
export function llmFormatCharge(teamId: string, row: Pick<PageRow, 'id' | 'jobId'>, format: LlmFormat): CreditMovement {
  return { teamId, amount: LLM_FORMAT_CREDITS, operation: format, jobId: row.jobId, idempotencyKey: `${format}:${row.id}` };
}

/** Takes `llmFormatCharge` in a transaction of its own; returns the credits. */
export async function chargeLlmFormat(db: Db, teamId: string, row: Pick<PageRow, 'id' | 'jobId'>, format: LlmFormat): Promise<number> {
  await db.transaction((tx) => charge(tx, llmFormatCharge(teamId, row, format)));
  return LLM_FORMAT_CREDITS;
}
