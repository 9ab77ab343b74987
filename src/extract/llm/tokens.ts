import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

let encoder: Tiktoken | undefined;

/**
 * Tokens in a text by OpenAI's cl100k encoding. Other models count a little differently; it
 * sizes chunks (with headroom) and stands in for usage a server does not report.
 */
export function countTokens(text: string): number {
  encoder ??= new Tiktoken(cl100kBase);
  return encoder.encode(text, [], []).length;
}
