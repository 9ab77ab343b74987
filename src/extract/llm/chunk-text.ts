import { countTokens } from './tokens';

/** Splits at the coarsest boundary that works: blank lines, then lines, then sentences, then words. */
const SEPARATORS = [/\n{2,}/, /\n/, /(?<=[.!?])\s+/, /\s+/];

function pieces(text: string, maxTokens: number, level: number): string[] {
  if (countTokens(text) <= maxTokens) return [text];
  const separator = SEPARATORS[level];
  if (!separator) {
    // One unbroken run longer than a chunk: cut by characters (≈ 3 per token, with room to spare).
    const out: string[] = [];
    for (let i = 0; i < text.length; i += maxTokens * 3) out.push(text.slice(i, i + maxTokens * 3));
    return out;
  }
  return text.split(separator).flatMap((part) => (part.trim() ? pieces(part, maxTokens, level + 1) : []));
}

/**
 * Markdown in chunks of at most `maxTokens`, cut at paragraph boundaries where possible so
 * that a field and its label stay together. Short pages are one chunk.
 */
export function chunkText(text: string, maxTokens: number): string[] {
  const chunks: string[] = [];
  let current = '';
  let currentTokens = 0;
  for (const piece of pieces(text, maxTokens, 0)) {
    const tokens = countTokens(piece);
    if (current && currentTokens + tokens + 1 > maxTokens) {
      chunks.push(current);
      current = '';
      currentTokens = 0;
    }
    current = current ? `${current}\n\n${piece}` : piece;
    currentTokens += tokens + 1;
  }
  if (current) chunks.push(current);
  return chunks.length > 0 ? chunks : [''];
}
