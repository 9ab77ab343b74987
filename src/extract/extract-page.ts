import { combineEngines } from './combine-engines';
import type { ExtractionEngine, ExtractSpec, PageInput } from './extraction-engine';
import type { ExtractionResult } from './extraction-result';
import { extractStructured } from './structured/structured-engine';

/** The structured-data engine behind the common interface. */
export const structuredDataEngine: ExtractionEngine = {
  name: 'structured-data',
  extract: (page, spec) => extractStructured(page.rawHtml, page.url, spec.schema),
};

/**
 * One page through the engines: structured data always; with an LLM, the model too (given the
 * structured data as hints) and the two combined, agreement raising confidence.
 */
export async function extractPage(page: PageInput, spec: ExtractSpec, llm: ExtractionEngine | undefined, signal?: AbortSignal): Promise<ExtractionResult> {
  const structured = await structuredDataEngine.extract(page, spec);
  if (!llm) {
    if (!spec.prompt && !spec.systemPrompt) return structured;
    const note = { path: '', confidence: 1, source: 'structured-data', evidence: null, message: 'no LLM is configured, so the prompt was not used: the values come from the page’s structured data' };
    return { ...structured, notes: [note, ...structured.notes] };
  }
  const fromModel = await llm.extract(page, spec, structured, signal);
  return combineEngines(fromModel, structured, spec.schema);
}
