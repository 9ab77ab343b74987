import type { Db } from '../../db/client';
import type { PageRow } from '../../db/page-row';
import { toV2Document, type V2Document, type V2DocumentExtras } from './document';
import { answerPage, type AnsweringLlm } from './page-answers';
import type { V2OutputSpec } from './scrape-options';

/**
 * A stored page as a v2 document, with the formats that rank the page's passages in Postgres
 * (question, query, highlights) filled in. With `llm`, answers are the LLM's (and charged).
 */
export async function renderV2Document(db: Db, row: PageRow, output: V2OutputSpec, extras: V2DocumentExtras = {}, llm?: AnsweringLlm): Promise<V2Document> {
  if (!output.answer && !output.highlights) return toV2Document(row, output, extras);
  const answers = await answerPage(db, row, output, llm);
  const doc = toV2Document(row, output, {
    ...extras,
    ...(answers.answer !== undefined && { answer: answers.answer }),
    ...(answers.highlights !== undefined && { highlights: answers.highlights }),
  });
  doc.metadata.creditsUsed += answers.credits;
  if (answers.warnings.length) doc.warning = [doc.warning, ...answers.warnings].filter(Boolean).join(' ');
  return doc;
}
