import { AppError } from '../../errors';
import { conformToSchema } from '../conform';
import type { ExtractionEngine, ExtractSpec, PageInput } from '../extraction-engine';
import type { FieldNote } from '../../db/field-note';
import { roundConfidence, snippet, type ExtractionResult } from '../extraction-result';
import { childPath, getPath } from '../field-path';
import { nullableSchema, SchemaReader, type JsonSchema, type SchemaView } from '../../json-schema/json-schema';
import { mergeResults } from '../merge-results';
import { schemaProblems } from '../../json-schema/schema-validator';
import { chunkText } from './chunk-text';
import { evidenceConfidence, PageText } from './evidence';
import { unfencedJson, type ChatMessage, type LlmClient } from './llm-client';
import { countTokens } from './tokens';

export const DEFAULT_SYSTEM_PROMPT = `You extract facts from one web page into JSON.
Answer with one JSON object {"data": ..., "evidence": [...]}:
- "data" follows the JSON Schema you are given. Use null for anything the page does not state; never guess or invent.
- "evidence" has one entry per field you filled: {"path": "<the field's path, e.g. price or offers[0].price>", "quote": "<the words of the page that state it, copied exactly>"}.`;

/** Tokens kept free for the model's answer: a quarter of the context, at most this many. */
const ANSWER_RESERVE = 1_024;
const MIN_CHUNK_TOKENS = 256;
const MAX_PROBLEMS_SHOWN = 20;

interface Evidence {
  path: string;
  quote: string;
}

/** The response format: the caller's schema (fields nullable) under `data`, and the model's evidence. */
export function envelopeSchema(schema: JsonSchema): JsonSchema {
  const { definitions, $defs, $schema: _s, $id: _i, ...data } = nullableSchema(schema);
  return {
    type: 'object',
    properties: {
      data,
      evidence: {
        type: 'array',
        items: { type: 'object', properties: { path: { type: 'string' }, quote: { type: 'string' } }, required: ['path', 'quote'] },
      },
    },
    required: ['data', 'evidence'],
    ...(definitions !== undefined && { definitions }),
    ...($defs !== undefined && { $defs }),
  };
}

/** `offers[0].price`, `/offers/0/price`, `$.offers.0.price` → `offers.0.price`. */
function pathKey(path: string): string {
  return path
    .replace(/^\$\.?/, '')
    .replace(/^\//, '')
    .replace(/\//g, '.')
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/^data\./, '');
}

/** The answer as {data, evidence}; a model in JSON mode may answer with the bare data object. */
function parseAnswer(content: string): { data: unknown; evidence: Evidence[] } | { error: string } {
  const body = unfencedJson(content);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (err) {
    return { error: `the answer is not JSON (${(err as Error).message})` };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: 'the answer is not a JSON object' };
  const envelope = parsed as { data?: unknown; evidence?: unknown };
  if (!('data' in envelope)) return { data: parsed, evidence: [] };
  const evidence = Array.isArray(envelope.evidence)
    ? envelope.evidence.filter((e): e is Evidence => !!e && typeof e === 'object' && typeof (e as Evidence).path === 'string' && typeof (e as Evidence).quote === 'string')
    : [];
  return { data: envelope.data, evidence };
}

/**
 * The LLM engine: the page's main-content markdown, chunked to the configured context, sent to
 * an OpenAI-compatible model with the schema as the response format. Output that fails
 * validation is sent back once with the errors; a second failure is kept (invalid fields null)
 * and said in the notes. Confidence comes from whether the model's evidence occurs in the page.
 */
export class LlmExtractionEngine implements ExtractionEngine {
  readonly name = 'llm' as const;

  constructor(private readonly client: LlmClient) {}

  async extract(page: PageInput, spec: ExtractSpec, hints?: ExtractionResult, signal?: AbortSignal): Promise<ExtractionResult> {
    const system = spec.systemPrompt ? `${DEFAULT_SYSTEM_PROMPT}\n\n${spec.systemPrompt}` : DEFAULT_SYSTEM_PROMPT;
    const hinted = hints ? filledOnly(hints.data) : undefined;
    const frame = (chunk: string, part: string) =>
      [
        'Extract data from this web page.',
        spec.prompt ? `Request: ${spec.prompt}` : '',
        `JSON Schema of "data":\n${JSON.stringify(spec.schema)}`,
        hinted ? `Values found in the page's markup (JSON-LD, microdata, meta tags, tables). Keep those the page text supports:\n${JSON.stringify(hinted)}` : '',
        `Page ${page.url}${part}:\n"""\n${chunk}\n"""`,
      ]
        .filter(Boolean)
        .join('\n\n');
    const overhead = countTokens(system) + countTokens(frame('', ' (part 10 of 10)'));
    const budget = this.client.config.contextTokens - overhead - Math.min(ANSWER_RESERVE, Math.floor(this.client.config.contextTokens / 4));
    if (budget < MIN_CHUNK_TOKENS) {
      throw new AppError('LLM_ERROR', `LLM_CONTEXT_TOKENS (${this.client.config.contextTokens}) leaves no room for page text next to this schema and prompt (${overhead} tokens); raise it`, undefined, { permanent: true });
    }
    const chunks = chunkText(page.markdown, budget);
    const pageText = new PageText(page.markdown, page.text);
    const parts = [];
    for (const [i, chunk] of chunks.entries()) {
      const part = chunks.length > 1 ? ` (part ${i + 1} of ${chunks.length})` : '';
      const result = await this.extractChunk([{ role: 'system', content: system }, { role: 'user', content: frame(chunk, part) }], spec.schema, pageText, signal);
      parts.push({ result, label: chunks.length > 1 ? `chunk ${i + 1}` : page.url });
    }
    const merged = mergeResults(parts, spec.schema);
    if (chunks.length > 1) {
      merged.notes.unshift({ path: '', confidence: 1, source: 'llm', evidence: null, message: `the page was read in ${chunks.length} chunks of at most ${budget} tokens and the answers merged` });
    }
    return merged;
  }

  private async extractChunk(messages: ChatMessage[], schema: JsonSchema, page: PageText, signal?: AbortSignal): Promise<ExtractionResult> {
    const format = { name: 'extraction', schema: envelopeSchema(schema) };
    const widened = nullableSchema(schema);
    const check = (content: string) => {
      const answer = parseAnswer(content);
      if ('error' in answer) return { answer: undefined, problems: [answer.error] };
      const problems = answer.data && typeof answer.data === 'object' && !Array.isArray(answer.data) ? schemaProblems(widened, answer.data).map((p) => p.message) : ['"data" is not an object'];
      return { answer, problems };
    };
    const first = await this.client.json(messages, format, signal);
    let tokens = first.tokens;
    let { answer, problems } = check(first.content);
    let failure: string | undefined;
    if (problems.length > 0) {
      const repair: ChatMessage[] = [
        ...messages,
        { role: 'assistant', content: first.content },
        { role: 'user', content: `Your answer does not validate:\n${problems.slice(0, MAX_PROBLEMS_SHOWN).map((p) => `- ${p}`).join('\n')}\nReply with the corrected JSON object only.` },
      ];
      const second = await this.client.json(repair, format, signal);
      tokens += second.tokens;
      ({ answer, problems } = check(second.content));
      if (problems.length > 0) failure = `The model's answer failed validation twice (${problems.slice(0, 5).join('; ')}); the fields that failed are null`;
    }
    const data = (answer?.data && typeof answer.data === 'object' && !Array.isArray(answer.data) ? answer.data : {}) as Record<string, unknown>;
    const notes = evidenceNotes(schema, data, answer?.evidence ?? [], page);
    if (failure) notes.unshift({ path: '', confidence: 0, source: 'llm', evidence: null, message: failure });
    return conformToSchema({ data, notes, llmTokens: tokens }, schema);
  }
}

/** The filled part of a result, as hints for the model. */
function filledOnly(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? value.map(filledOnly) : undefined;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .map(([k, v]) => [k, filledOnly(v)] as const)
      .filter(([, v]) => v !== undefined && v !== null);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return value ?? undefined;
}

/** A note per field of the model's answer, its confidence from the evidence found in the page. */
function evidenceNotes(schema: JsonSchema, data: Record<string, unknown>, evidence: Evidence[], page: PageText): FieldNote[] {
  const reader = new SchemaReader(schema);
  const quotes = new Map<string, string>();
  for (const e of evidence) {
    const key = pathKey(e.path);
    if (!quotes.has(key)) quotes.set(key, e.quote);
    const loose = key.replace(/\.\d+(?=\.|$)/g, '');
    if (!quotes.has(loose)) quotes.set(loose, e.quote);
  }
  const quoteFor = (path: string) => quotes.get(pathKey(path)) ?? quotes.get(pathKey(path).replace(/\.\d+(?=\.|$)/g, ''));
  const notes: FieldNote[] = [];
  const walk = (view: SchemaView, path: string, depth: number) => {
    const value = path ? getPath(data, path) : data;
    if (depth > 8) return;
    if (view.kind === 'object' && (value === undefined || value === null || typeof value === 'object')) {
      for (const [name, sub] of Object.entries(view.properties)) walk(reader.view(sub), childPath(path, name), depth + 1);
      return;
    }
    if (view.kind === 'array' && Array.isArray(value) && reader.view(view.items).kind === 'object') {
      value.forEach((_, i) => walk(reader.view(view.items), `${path}[${i}]`, depth + 1));
      return;
    }
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) {
      notes.push({ path, confidence: 0, source: 'llm', evidence: null, message: 'the model found no value' });
      return;
    }
    const quote = quoteFor(path);
    const { confidence, message } = evidenceConfidence(value, quote, page);
    notes.push({ path, confidence: roundConfidence(confidence), source: 'llm', evidence: quote ? snippet(quote) : null, message });
  };
  walk(reader.view(schema), '', 0);
  return notes;
}
