/**
 * The WCXB scoring rule (shared/corpora/wcxb-dev/README.md): lower-case both texts, tokenize
 * with Python's `\w+` (Unicode letters, digits and `_`), count the multiset overlap; precision = overlap / predicted tokens, recall =
 * overlap / reference tokens.
 */
export interface WordScore {
  precision: number;
  recall: number;
  f1: number;
}

function tokens(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

function total(counts: Map<string, number>): number {
  let n = 0;
  for (const c of counts.values()) n += c;
  return n;
}

export function wordF1(predicted: string, reference: string): WordScore {
  const p = tokens(predicted);
  const r = tokens(reference);
  let overlap = 0;
  for (const [word, count] of p) overlap += Math.min(count, r.get(word) ?? 0);
  const np = total(p);
  const nr = total(r);
  if (np === 0 && nr === 0) return { precision: 1, recall: 1, f1: 1 };
  const precision = np ? overlap / np : 0;
  const recall = nr ? overlap / nr : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}
