/** Words per shingle, hash functions per signature, and the estimated Jaccard that makes a duplicate. */
const SHINGLE_WORDS = 5;
const HASHES = 64;
const THRESHOLD = 0.85;

/** FNV-1a, 32-bit: shingles only need a fast, stable hash. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Fixed odd multipliers and offsets, so signatures are the same in every process. */
const SEEDS = Array.from({ length: HASHES }, (_, i) => [(fnv1a(`a${i}`) | 1) >>> 0, fnv1a(`b${i}`)] as const);

/** MinHash signature of a text's word shingles, or null for a text too short to judge. */
function signature(text: string): Uint32Array | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length < SHINGLE_WORDS * 2) return null;
  const sig = new Uint32Array(HASHES).fill(0xffffffff);
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) {
    const x = fnv1a(words.slice(i, i + SHINGLE_WORDS).join(' '));
    for (let k = 0; k < HASHES; k++) {
      const h = (Math.imul(SEEDS[k]![0], x) + SEEDS[k]![1]) >>> 0;
      if (h < sig[k]!) sig[k] = h;
    }
  }
  return sig;
}

/**
 * Indexes of texts that nearly repeat an earlier one (estimated Jaccard similarity of their
 * 5-word shingles ≥ 0.85): mirrors, printer-friendly copies, syndicated articles. Texts come in
 * order of preference, so the first of each group is kept.
 */
export function nearDuplicateIndexes(texts: readonly (string | null | undefined)[]): Set<number> {
  const kept: Uint32Array[] = [];
  const dropped = new Set<number>();
  texts.forEach((text, i) => {
    const sig = text ? signature(text) : null;
    if (!sig) return;
    const duplicate = kept.some((other) => {
      let same = 0;
      for (let k = 0; k < HASHES; k++) if (other[k] === sig[k]) same++;
      return same / HASHES >= THRESHOLD;
    });
    if (duplicate) dropped.add(i);
    else kept.push(sig);
  });
  return dropped;
}
