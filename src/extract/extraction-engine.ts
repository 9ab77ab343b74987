import type { ExtractionResult } from './extraction-result';
import type { JsonSchema } from '../json-schema/json-schema';

/** One page as the engines read it: the markup for structured data, the main content for a model. */
export interface PageInput {
  url: string;
  rawHtml: string;
  /** Main-content markdown. */
  markdown: string;
  text: string;
}

/** What to extract: always a schema here (a prompt-only request has had one inferred). */
export interface ExtractSpec {
  schema: JsonSchema;
  prompt?: string;
  systemPrompt?: string;
}

/**
 * The interface both engines share. Each returns data that validates against the schema (with
 * unfilled fields null) and a note per field.
 */
export interface ExtractionEngine {
  readonly name: 'structured-data' | 'llm';
  /** `hints`: another engine's result, for the LLM to check against the page text. */
  extract(page: PageInput, spec: ExtractSpec, hints?: ExtractionResult, signal?: AbortSignal): Promise<ExtractionResult>;
}
