import type { LlmConfig } from '../../config/env';
import type { Db } from '../../db/client';
import type { LlmFormats } from '../../db/llm-formats';
import type { PageRow } from '../../db/page-row';
import { toV2Document, type V2Document, type V2DocumentExtras } from './document';
import { chargeLlmFormat } from './llm-charge';
import { pageHighlights } from './page-answers';
import { readLlmFormats, wantsLlmFormats } from './page-llm-formats';
import type { V2OutputSpec } from './scrape-options';

/** The LLM that answers, and the team its work is charged to. */
export interface AnsweringLlm {
  config: LlmConfig;
  teamId: string;
}

/**
 * A stored page as a v2 document, with the formats read asynchronously filled in: highlights,
 * ranked from the page's passages in Postgres, and the answer, product and menu. A crawl's or
 * batch's page stored those three when it was scraped with an LLM (`row.llmFormats`, read for
 * its job's own formats): they are shown as stored. Otherwise they are read now; with `llm`,
 * the LLM answers and fills the product's and the menu's gaps, each charged once per page.
 */
export async function renderV2Document(db: Db, row: PageRow, output: V2OutputSpec, extras: V2DocumentExtras = {}, llm?: AnsweringLlm): Promise<V2Document> {
  if (!output.highlights && !wantsLlmFormats(output)) return toV2Document(row, output, extras);
  const highlighted = output.highlights ? await pageHighlights(db, row, output.highlights) : { warnings: [] };
  const formats: LlmFormats = row.llmFormats ?? (wantsLlmFormats(output) ? await readAndCharge(db, row, output, llm) : { warnings: [], credits: 0 });
  const { answer, product, menu } = formats;
  const doc = toV2Document(row, output, {
    ...extras,
    ...(answer !== undefined && { answer }),
    ...(highlighted.highlights !== undefined && { highlights: highlighted.highlights }),
    ...(product && { product }),
    ...(menu && { menu }),
  });
  // A stored page's charge (row.credits) already counts what its LLM formats cost.
  if (!row.llmFormats) doc.metadata.creditsUsed += formats.credits;
  const warnings = [...formats.warnings, ...highlighted.warnings];
  if (warnings.length) doc.warning = [doc.warning, ...warnings].filter(Boolean).join(' ');
  return doc;
}

/** The answer, product and menu read now, the LLM's work charged once per page and format. */
async function readAndCharge(db: Db, row: PageRow, output: V2OutputSpec, llm?: AnsweringLlm): Promise<LlmFormats> {
  const source = { url: row.metadata?.url ?? row.url, rawHtml: row.rawHtml ?? '', markdown: row.markdown ?? '', text: row.text, searchLanguage: row.searchLanguage };
  const { read, llmUsed } = await readLlmFormats(db, source, output, llm?.config);
  let credits = 0;
  for (const format of llmUsed) credits += await chargeLlmFormat(db, llm!.teamId, row, format);
  return { ...read, credits };
}
