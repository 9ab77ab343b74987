import { z } from 'zod';
import type { LlmConfig } from '../config/env';
import { AppError } from '../errors';
import type { JsonSchema } from '../json-schema/json-schema';
import { extractSchemaProblems } from '../json-schema/schema-validator';

/** Largest schema accepted, serialized. */
const MAX_SCHEMA_CHARS = 100_000;

/** Request fields shared by POST /v1/extract and a scrape's `jsonOptions`. */
export const extractSpecFields = {
  schema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('JSON Schema (type object) the result follows. A property may carry `x-selector`, a CSS selector that picks its value from the page.'),
  prompt: z.string().min(1).max(10_000).optional().describe('What to extract, in words. Without a schema it needs an LLM, which infers a schema first.'),
  systemPrompt: z.string().min(1).max(10_000).optional().describe('Extra instructions for the LLM.'),
};

/** Adds a `BAD_REQUEST` detail for a schema that is not an object schema or not valid JSON Schema. */
export function refineExtractSchema(schema: JsonSchema | undefined, ctx: z.RefinementCtx, path: (string | number)[]): void {
  if (!schema) return;
  if (JSON.stringify(schema).length > MAX_SCHEMA_CHARS) {
    ctx.addIssue({ code: 'custom', path, message: `must be at most ${MAX_SCHEMA_CHARS} characters of JSON` });
    return;
  }
  for (const problem of extractSchemaProblems(schema)) ctx.addIssue({ code: 'custom', path, message: problem });
}

/** A prompt without a schema needs an LLM to infer one; say how to configure it. */
export function requireLlmForPromptOnly(spec: { schema?: unknown; prompt?: string | undefined }, llm: LlmConfig | undefined): void {
  if (spec.schema || llm) return;
  throw new AppError(
    'LLM_NOT_CONFIGURED',
    'A prompt without a schema needs an LLM, and none is configured. Send a JSON Schema in `schema` (the structured-data engine fills it without an LLM), or set LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY if the server wants one) on the API and worker, e.g. LLM_BASE_URL=http://127.0.0.1:11434/v1 LLM_MODEL=llama3.1 for a local Ollama.',
  );
}
