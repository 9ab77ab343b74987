/** Okapi BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/** How often each query lexeme occurs in one document, and the document's length in tokens. */
export interface TermStats {
  /** Lexeme → occurrences, weighted by field (see FIELD_WEIGHT). */
  tf: ReadonlyMap<string, number>;
  length: number;
}

/**
 * Occurrences count by the field they are in, as Postgres labels positions: the title (A)
 * thrice, headings and description (B) twice, the body (C, D) once. A BM25F in miniature.
 */
export const FIELD_WEIGHT: Record<string, number> = { A: 3, B: 2, C: 1, D: 1 };

/**
 * BM25 of each document for the query's lexemes, with document frequencies taken over the
 * documents given: the candidates a provider returned for this very query.
 */
export function bm25Scores(docs: readonly TermStats[], lexemes: readonly string[]): number[] {
  const n = docs.length;
  if (n === 0) return [];
  const avgLength = docs.reduce((sum, d) => sum + d.length, 0) / n || 1;
  const idf = new Map(
    lexemes.map((t) => {
      const df = docs.filter((d) => (d.tf.get(t) ?? 0) > 0).length;
      return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))] as const;
    }),
  );
  return docs.map((d) => {
    let score = 0;
    for (const t of lexemes) {
      const tf = d.tf.get(t) ?? 0;
      if (tf > 0) score += idf.get(t)! * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / avgLength)));
    }
    return score;
  });
}
