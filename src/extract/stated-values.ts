import type { ExtractionResult } from './extraction-result';
import { childPath } from './field-path';

/**
 * Least confidence of a value kept: structured data, or an LLM's value whose quoted evidence
 * occurs in the page and shows it (see llm/evidence.ts). Below it: a value that merely occurs
 * somewhere on the page, or evidence borrowed from another item of a list (0.5 and less).
 */
const STATED = 0.55;

/**
 * An extraction's data with only the values its notes vouch for: null, unfilled and
 * low-confidence values left out, at every depth (a value without a note of its own takes its
 * nearest parent's). For results a caller shows as the page's own statements.
 */
export function statedValues(result: ExtractionResult): Record<string, unknown> {
  const confidence = new Map(result.notes.map((n) => [n.path, n.confidence]));
  const vouched = (path: string): boolean => {
    // The whole result's note ('') says how it was made, not that a field is stated.
    for (let p = path; p; p = p.replace(/(\.?[^.[\]]+|\[\d+\])$/, '')) {
      const c = confidence.get(p);
      if (c !== undefined) return c >= STATED;
    }
    return false;
  };
  const keep = (value: unknown, path: string): unknown => {
    if (value === null || value === undefined) return undefined;
    if (Array.isArray(value)) {
      const items = value.map((v, i) => keep(v, `${path}[${i}]`)).filter((v) => v !== undefined);
      return items.length ? items : undefined;
    }
    if (typeof value === 'object') {
      const entries = Object.entries(value).flatMap(([k, v]) => {
        const kept = keep(v, childPath(path, k));
        return kept === undefined ? [] : [[k, kept] as const];
      });
      return entries.length ? Object.fromEntries(entries) : undefined;
    }
    return vouched(path) ? value : undefined;
  };
  return (keep(result.data, '') as Record<string, unknown> | undefined) ?? {};
}
