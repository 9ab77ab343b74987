import { AppError } from '../../errors';
import type { JsonSchema } from '../../json-schema/json-schema';
import { extractSchemaProblems } from '../../json-schema/schema-validator';
import { unfencedJson, type ChatMessage, type LlmClient } from './llm-client';
import { chunkText } from './chunk-text';

const SYSTEM = `You design JSON Schemas (draft-07) for extracting data from web pages.
Reply with one JSON Schema object only: {"type": "object", "properties": {...}, "required": [...]}.
Name properties in camelCase, give each a "type" and a short "description", use arrays for lists, and do not use $ref.`;

/** Tokens of the first page shown to the model so the schema fits what pages actually say. */
const SAMPLE_TOKENS = 1_500;

export interface InferredSchema {
  schema: JsonSchema;
  tokens: number;
}

/**
 * A schema for a prompt-only request, asked of the model (with the start of the first page as
 * a sample). An unusable answer is sent back once with the problems; a second one fails.
 */
export async function inferSchema(client: LlmClient, prompt: string, sample: string, signal?: AbortSignal): Promise<InferredSchema> {
  const excerpt = chunkText(sample, SAMPLE_TOKENS)[0] ?? '';
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `What to extract: ${prompt}\n\nThe first page it will run on begins:\n"""\n${excerpt}\n"""` },
  ];
  let tokens = 0;
  let problems: string[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    const reply = await client.json(messages, undefined, signal);
    tokens += reply.tokens;
    let schema: unknown;
    try {
      schema = JSON.parse(unfencedJson(reply.content));
    } catch (err) {
      problems = [`the answer is not JSON (${(err as Error).message})`];
    }
    if (schema !== undefined) {
      problems = schema && typeof schema === 'object' && !Array.isArray(schema) ? extractSchemaProblems(schema as JsonSchema).map((p) => `the schema ${p}`) : ['the answer is not a JSON object'];
      if (problems.length === 0) return { schema: schema as JsonSchema, tokens };
    }
    messages.push({ role: 'assistant', content: reply.content }, { role: 'user', content: `That does not work: ${problems.join('; ')}. Reply with the corrected JSON Schema only.` });
  }
  throw new AppError('LLM_ERROR', `The model did not produce a usable schema for the prompt: ${problems.join('; ')}`, undefined, { permanent: true });
}
