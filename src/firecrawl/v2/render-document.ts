import type { Db } from '../../db/client';
import type { PageRow } from '../../db/page-row';
import { toV2Document, type V2Document, type V2DocumentExtras } from './document';
import { answerPage, type AnsweringLlm, type PageAnswers } from './page-answers';
import { LlmClient } from '../../extract/llm/llm-client';
import { LlmExtractionEngine } from '../../extract/llm/llm-engine';
import { chargeLlmFormat } from './llm-charge';
import { menuProfile } from './menu-profile';
import { productProfile } from './product-profile';
import type { V2OutputSpec } from './scrape-options';

/**
 * A stored page as a v2 document, with the formats read asynchronously filled in: those that
 * rank the page's passages in Postgres (question, query, highlights) and the product and menu
 * read from the page's structured data. With `llm`, answers are the LLM's and it fills the
 * product's and the menu's gaps, each charged once per page.
 */
export async function renderV2Document(db: Db, row: PageRow, output: V2OutputSpec, extras: V2DocumentExtras = {}, llm?: AnsweringLlm): Promise<V2Document> {
  const wantsProduct = output.formats.includes('product');
  const wantsMenu = output.formats.includes('menu');
  if (!output.answer && !output.highlights && !wantsProduct && !wantsMenu) return toV2Document(row, output, extras);
  const answers: PageAnswers = output.answer || output.highlights ? await answerPage(db, row, output, llm) : { warnings: [], credits: 0 };
  const warnings = [...answers.warnings];
  let credits = answers.credits;

  const url = row.metadata?.url ?? row.url;
  const page = { url, rawHtml: row.rawHtml ?? '', markdown: row.markdown ?? '', text: row.text ?? '' };
  const engine = llm && new LlmExtractionEngine(new LlmClient(llm.config));
  const read = wantsProduct ? await productProfile(page, engine) : undefined;
  if (read?.llmUsed && llm) credits += await chargeLlmFormat(db, llm.teamId, row, 'product');
  if (wantsProduct && !read?.product) warnings.push("The page's structured data states no product (no price, SKU or availability); `product` is absent.");
  const listed = wantsMenu ? await menuProfile(page, engine) : undefined;
  if (listed?.llmUsed && llm) credits += await chargeLlmFormat(db, llm.teamId, row, 'menu');
  if (wantsMenu && !listed?.menu) warnings.push("The page states no menu item (schema.org Menu, MenuSection, MenuItem); `menu` is absent.");

  const doc = toV2Document(row, output, {
    ...extras,
    ...(answers.answer !== undefined && { answer: answers.answer }),
    ...(answers.highlights !== undefined && { highlights: answers.highlights }),
    ...(read?.product && { product: read.product }),
    ...(listed?.menu && { menu: listed.menu }),
  });
  doc.metadata.creditsUsed += credits;
  if (warnings.length) doc.warning = [doc.warning, ...warnings].filter(Boolean).join(' ');
  return doc;
}
