import type { ChangeTrackingResult } from './change-result';
import { diffLines, unifiedDiffText } from './line-diff';

/** What a comparison reads of one stored copy of a page. */
export interface PageCopy {
  markdown: string;
  statusCode: number;
  /** The json mode's extraction of this copy, when it had one. */
  json: unknown;
}

/** A target status that means the page is gone. */
const GONE = (statusCode: number) => statusCode === 404 || statusCode === 410;

/**
 * Compares the current copy of a page with the previous one (absent: the page is new to this
 * team). The markdown decides same/changed; a page that now answers 404/410 and did not before
 * is removed.
 */
export function compareCopies(
  current: PageCopy,
  previous: (PageCopy & { scrapedAt: Date }) | undefined,
  modes: readonly ('git-diff' | 'json')[],
): ChangeTrackingResult {
  if (!previous) return { previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' };
  const removed = GONE(current.statusCode) && !GONE(previous.statusCode);
  const same = current.markdown === previous.markdown && GONE(current.statusCode) === GONE(previous.statusCode);
  const result: ChangeTrackingResult = {
    previousScrapeAt: previous.scrapedAt.toISOString(),
    changeStatus: removed ? 'removed' : same ? 'same' : 'changed',
    visibility: 'visible',
  };
  if (modes.includes('git-diff') && !same) {
    const file = diffLines(previous.markdown, current.markdown);
    result.diff = { text: unifiedDiffText(file), json: { files: [file] } };
  }
  if (modes.includes('json')) result.json = changedFields(previous.json, current.json);
  return result;
}

/** Top-level fields whose values differ, with both values (a missing side is null). */
function changedFields(previous: unknown, current: unknown): Record<string, { previous: unknown; current: unknown }> {
  const before = asRecord(previous);
  const after = asRecord(current);
  const out: Record<string, { previous: unknown; current: unknown }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const p = before[key] ?? null;
    const c = after[key] ?? null;
    if (canonical(p) !== canonical(c)) out[key] = { previous: p, current: c };
  }
  return out;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** JSON with object keys sorted, so key order does not count as a change. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}
