import { parseNumber } from '../coerce';

/** Text in a form where a quote matches however the page formatted it: no markdown marks, one kind of quote, dash and space. */
export function searchable(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`#>|~]+/g, ' ')
    .replace(/[‘’‚‛′]/g, "'")
    .replace(/[“”„‟″]/g, '"')
    .replace(/[‐‑‒–—―]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

const NUMBER = /[-−]?\d(?:[\d.,'\u00a0\u202f]*\d)?/g;

function numbersIn(text: string): number[] {
  return (text.match(NUMBER) ?? []).map((n) => parseNumber(n)?.value).filter((n): n is number => n !== undefined);
}

/** Whether a value can be seen in a text: the string itself, or the same number however it is written. */
function shows(text: string, value: unknown, numbers: () => number[]): boolean {
  if (typeof value === 'string') return text.includes(searchable(value));
  if (typeof value === 'number') return numbers().some((n) => Math.abs(n - value) < 1e-6 * Math.max(1, Math.abs(value)));
  return false;
}

/** The page as the model read it, for checking what the model says it read. */
export class PageText {
  private readonly haystack: string;
  private numbers?: number[];

  constructor(...texts: string[]) {
    this.haystack = texts.map(searchable).join('\n');
  }

  contains(quote: string): boolean {
    const needle = searchable(quote);
    return needle.length > 0 && this.haystack.includes(needle);
  }

  shows(value: unknown): boolean {
    return shows(this.haystack, value, () => (this.numbers ??= numbersIn(this.haystack)));
  }
}

/**
 * How much to trust a value the model gave, from its evidence, not from what the model
 * claims: a quote found verbatim in the page that shows the value is strong; a quote the page
 * does not contain is weak whatever the value.
 */
export function evidenceConfidence(value: unknown, quote: string | undefined, page: PageText): { confidence: number; message: string } {
  const values = (Array.isArray(value) ? value : [value]).filter((v) => v !== null && typeof v !== 'object');
  if (values.length === 0) return { confidence: 0.1, message: 'the model gave no plain value here' };
  if (quote && page.contains(quote)) {
    const text = searchable(quote);
    const shown = values.filter((v) => typeof v === 'boolean' || shows(text, v, () => numbersIn(quote))).length;
    if (shown === values.length) return { confidence: 0.9, message: 'the evidence occurs in the page' };
    return { confidence: 0.5 + 0.3 * (shown / values.length), message: 'the evidence occurs in the page but does not show the whole value' };
  }
  const visible = values.every((v) => page.shows(v));
  if (!quote) {
    return visible
      ? { confidence: 0.5, message: 'no evidence given; the value occurs in the page' }
      : { confidence: 0.15, message: 'no evidence given and the value does not occur in the page' };
  }
  return visible
    ? { confidence: 0.3, message: 'the evidence does not occur in the page (the value does)' }
    : { confidence: 0.1, message: 'the evidence does not occur in the page' };
}
