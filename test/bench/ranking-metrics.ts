/** Graded relevance of a ranked list's entries: 0 when not judged relevant. */
export type Grades = Readonly<Record<string, number>>;

/** nDCG@k with exponential gain (2^grade − 1) and a log2 position discount. */
export function ndcgAt(ranked: readonly string[], grades: Grades, k: number): number {
  const dcg = (gs: number[]) => gs.slice(0, k).reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
  const ideal = dcg(Object.values(grades).sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(ranked.map((id) => grades[id] ?? 0)) / ideal;
}

/** 1 / the position of the first entry with at least `minGrade`, or 0 when none is ranked. */
export function reciprocalRank(ranked: readonly string[], grades: Grades, minGrade: number): number {
  const at = ranked.findIndex((id) => (grades[id] ?? 0) >= minGrade);
  return at < 0 ? 0 : 1 / (at + 1);
}
