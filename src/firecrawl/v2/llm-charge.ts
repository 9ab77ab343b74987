import { charge } from '../../credits/ledger';
import { PRICES } from '../../credits/pricing';
import type { Db } from '../../db/client';
import type { PageRow } from '../../db/page-row';

/**
 * The charge for a format the configured LLM worked on: the json format's price, once per page
 * and format (`<format>:<pageId>`), however often the page is rendered. Returns the credits.
 */
export async function chargeLlmFormat(db: Db, teamId: string, row: Pick<PageRow, 'id' | 'jobId'>, format: 'answer' | 'product' | 'menu'): Promise<number> {
  await db.transaction((tx) => charge(tx, { teamId, amount: PRICES.json, operation: format, jobId: row.jobId, idempotencyKey: `${format}:${row.id}` }));
  return PRICES.json;
}
