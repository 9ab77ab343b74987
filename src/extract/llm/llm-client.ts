import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { LlmConfig } from '../../config/env';
import { AppError } from '../../errors';
import type { JsonSchema } from '../../json-schema/json-schema';
import { countTokens } from './tokens';

export type ChatMessage = ChatCompletionMessageParam;

export interface JsonReply {
  content: string;
  /** Prompt + completion tokens, as the server reports them (counted here when it does not). */
  tokens: number;
}

/** A JSON reply without the Markdown code fence some models wrap it in. */
export function unfencedJson(content: string): string {
  return content.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
}

/** The OpenAI SDK, loaded when a client is made: a deployment without an LLM never holds it (about 17 MB). */
const openai = (): typeof import('openai') => require('openai') as typeof import('openai');

/** Servers that do not know `json_schema` say so in a 400 (OpenAI-compatible servers word it differently). */
const SCHEMA_FORMAT_REFUSED = /response_format|json_schema|structured output|schema/i;

/**
 * Any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, vLLM, LM Studio, llama.cpp
 * server) through the `openai` client. Asks for JSON Schema structured output; with `auto`, a
 * server that refuses it gets JSON mode from then on (the caller validates either way).
 */
export class LlmClient {
  private readonly client: OpenAI;
  private schemaFormat: boolean;

  constructor(readonly config: LlmConfig) {
    this.client = new (openai().OpenAI)({ baseURL: config.baseUrl, apiKey: config.apiKey, timeout: config.timeoutMs, maxRetries: 0 });
    this.schemaFormat = config.responseFormat !== 'json_object';
  }

  /** One JSON answer. `schema` is sent as the response format when the server takes it. */
  async json(messages: ChatMessage[], schema: { name: string; schema: JsonSchema } | undefined, signal?: AbortSignal): Promise<JsonReply> {
    const useSchema = this.schemaFormat && schema !== undefined;
    try {
      const completion = await this.client.chat.completions.create(
        {
          model: this.config.model,
          messages,
          temperature: 0,
          response_format: useSchema ? { type: 'json_schema', json_schema: { name: schema.name, schema: schema.schema, strict: false } } : { type: 'json_object' },
        },
        { ...(signal && { signal }) },
      );
      const content = completion.choices[0]?.message?.content ?? '';
      const tokens = completion.usage?.total_tokens ?? countTokens(messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n') + content);
      return { content, tokens };
    } catch (err) {
      if (useSchema && this.config.responseFormat === 'auto' && err instanceof openai().APIError && err.status === 400 && SCHEMA_FORMAT_REFUSED.test(err.message)) {
        this.schemaFormat = false;
        return this.json(messages, schema, signal);
      }
      throw this.asAppError(err);
    }
  }

  /** A typed error naming the endpoint; 4xx other than 408/429 will not get better by retrying. */
  private asAppError(err: unknown): unknown {
    const where = `the LLM at ${this.config.baseUrl} (model ${this.config.model})`;
    if (err instanceof openai().APIConnectionError) return new AppError('LLM_ERROR', `Could not reach ${where}: ${err.message}`, undefined, { cause: err });
    if (err instanceof openai().APIError) {
      const permanent = err.status !== undefined && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;
      return new AppError('LLM_ERROR', `${where} answered ${err.status ?? 'an error'}: ${err.message}`, undefined, { cause: err, permanent });
    }
    return err;
  }
}
