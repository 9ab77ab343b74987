import { z } from 'zod';
import type { LlmConfig } from '../../config/env';
import { AppError } from '../../errors';
import { LlmClient, unfencedJson } from '../../extract/llm/llm-client';
import { validate } from '../validation';
import { v2CrawlParamsSchema, type V2CrawlParams } from './crawl-request';

const SYSTEM = `You turn a description of what to crawl on a web site into crawl options.
Reply with one JSON object using only these keys, each only when the description calls for it:
includePaths and excludePaths (arrays of JavaScript regular expressions matched against the URL path, e.g. "^/blog/"),
maxDiscoveryDepth (link hops from the start URL), crawlEntireDomain (also pages outside the start URL's path),
allowSubdomains, allowExternalLinks, ignoreQueryParameters (booleans), sitemap ("skip", "include" or "only"),
limit (most pages).`;

const PARAMS_JSON_SCHEMA = z.toJSONSchema(v2CrawlParamsSchema, { io: 'input', target: 'draft-7' }) as Record<string, unknown>;

/** Asks the configured LLM for the crawl options a prompt describes. */
export class CrawlParamsFromPrompt {
  private readonly client: LlmClient | undefined;

  constructor(llm: LlmConfig | undefined) {
    this.client = llm && new LlmClient(llm);
  }

  /** The options the prompt describes, validated; 422 without an LLM, 502 when its answer is unusable. */
  async derive(url: string, prompt: string): Promise<V2CrawlParams> {
    if (!this.client) {
      throw new AppError(
        'LLM_NOT_CONFIGURED',
        'Turning a crawl prompt into options needs an LLM, and none is configured. Give the crawl options (includePaths, maxDiscoveryDepth, ...) yourself, or set LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY if the server wants one) on the API.',
      );
    }
    const reply = await this.client.json(
      [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: `Start URL: ${url}\nWhat to crawl: ${prompt}` },
      ],
      { name: 'crawl_options', schema: PARAMS_JSON_SCHEMA },
    );
    let answer: unknown;
    try {
      answer = JSON.parse(unfencedJson(reply.content));
    } catch (err) {
      throw new AppError('LLM_ERROR', `The model's crawl options are not JSON: ${(err as Error).message}`);
    }
    try {
      return validate(v2CrawlParamsSchema, answer, 'crawl options from the model');
    } catch (err) {
      throw new AppError('LLM_ERROR', (err as AppError).message, (err as AppError).details);
    }
  }
}
