import type { FieldNote } from '../db/field-note';

/** What an engine makes of one page (or one chunk of it). */
export interface ExtractionResult {
  data: Record<string, unknown>;
  notes: FieldNote[];
  /** LLM tokens used (prompt + completion); 0 for the structured-data engine. */
  llmTokens: number;
}

export const MAX_EVIDENCE_CHARS = 300;

/** Evidence trimmed to a readable snippet. */
export function snippet(text: string, max = MAX_EVIDENCE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function roundConfidence(c: number): number {
  return Math.round(Math.min(1, Math.max(0, c)) * 100) / 100;
}
