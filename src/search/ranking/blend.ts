/**
 * The final score of a result: the provider's opinion, decaying with its rank, blended with the
 * BM25 relevance of the page's content to the query, normalised by the best candidate's:
 *
 *   score = 0.4 / √(provider rank) + 0.6 · BM25 / max BM25
 *
 * so a page the provider put third but that is about the query beats a first hit that only
 * mentions it, while equally relevant pages keep the provider's order. Scores are in (0, 1].
 */
export const BLEND_WEIGHTS = { provider: 0.4, content: 0.6 } as const;

export function blendScore(providerRank: number, bm25: number, maxBm25: number): number {
  const content = maxBm25 > 0 ? bm25 / maxBm25 : 0;
  return BLEND_WEIGHTS.provider / Math.sqrt(providerRank) + BLEND_WEIGHTS.content * content;
}
