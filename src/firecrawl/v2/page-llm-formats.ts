import type { LlmConfig } from '../../config/env';
import type { Db } from '../../db/client';
import type { LlmFormats } from '../../db/llm-formats';
import { LlmClient } from '../../extract/llm/llm-client';
import { LlmExtractionEngine } from '../../extract/llm/llm-engine';
import type { LlmFormat } from './llm-charge';
import { menuProfile } from './menu-profile';
import { pageAnswer, type AnswerSource } from './page-answers';
import { productProfile } from './product-profile';
import type { V2OutputSpec } from './scrape-options';

/** What the formats are read from: the text for the answer, the markup for product and menu. */
export interface FormatSource extends AnswerSource {
  /** The page's final URL. */
  url: string;
  rawHtml: string;
  markdown: string;
}

/** Whether `output` asks for a format an LLM works on when one is configured. */
export function wantsLlmFormats(output: V2OutputSpec): boolean {
  return Boolean(output.answer) || output.formats.includes('product') || output.formats.includes('menu');
}

/**
 * The answer, product and menu `output` asks for, with their warnings, and the formats the LLM
 * worked on (`llmUsed`, each charged once per page by the caller). Without `llm`, the answer is
 * the page's best passage and product and menu are its structured data's.
 */
export async function readLlmFormats(db: Db, page: FormatSource, output: V2OutputSpec, llm?: LlmConfig): Promise<{ read: Omit<LlmFormats, 'credits'>; llmUsed: LlmFormat[] }> {
  const llmUsed: LlmFormat[] = [];
  const warnings: string[] = [];
  const answered = output.answer && (await pageAnswer(db, page, output.answer, llm));
  if (answered) warnings.push(...answered.warnings);
  if (answered && answered.llmUsed) llmUsed.push('answer');

  const engine = llm && new LlmExtractionEngine(new LlmClient(llm));
  const input = { url: page.url, rawHtml: page.rawHtml, markdown: page.markdown, text: page.text ?? '' };
  const read = output.formats.includes('product') ? await productProfile(input, engine) : undefined;
  if (read?.llmUsed) llmUsed.push('product');
  if (read && !read.product) warnings.push("The page's structured data states no product (no price, SKU or availability); `product` is absent.");
  const listed = output.formats.includes('menu') ? await menuProfile(input, engine) : undefined;
  if (listed?.llmUsed) llmUsed.push('menu');
  if (listed && !listed.menu) warnings.push("The page states no menu item (schema.org Menu, MenuSection, MenuItem); `menu` is absent.");
  return {
    read: {
      ...(answered && answered.answer !== undefined && { answer: answered.answer }),
      ...(read?.product && { product: read.product }),
      ...(listed?.menu && { menu: listed.menu }),
      warnings,
    },
    llmUsed,
  };
}
