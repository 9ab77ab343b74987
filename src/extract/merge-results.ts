import type { FieldNote } from '../db/field-note';
import { roundConfidence, snippet, type ExtractionResult } from './extraction-result';
import { childPath, isWithin } from './field-path';
import { SchemaReader, type JsonSchema, type SchemaView } from '../json-schema/json-schema';

/** One page's (or one chunk's) result, and where it came from. */
export interface ResultPart {
  result: ExtractionResult;
  /** The page, for notes of multi-page merges. */
  url?: string;
  /** Name of the part in merge notes: a URL, or `chunk 2`. */
  label: string;
}

interface Piece {
  value: unknown;
  notes: FieldNote[];
  part: ResultPart;
}

const present = (v: unknown) => v !== null && v !== undefined;

/** A value in a form where "the same thing" compares equal: case, spacing and key order ignored. */
export function canonical(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.replace(/\s+/g, ' ').trim().toLowerCase());
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => present(v))
      .sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function withUrl(note: FieldNote, part: ResultPart): FieldNote {
  return part.url && !note.url ? { ...note, url: part.url } : note;
}

/** Moves notes under `from` (an item of one part's array) to `to` (its place in the merged array). */
function rebase(notes: FieldNote[], from: string, to: string): FieldNote[] {
  return notes.filter((n) => isWithin(n.path, from)).map((n) => ({ ...n, path: to + n.path.slice(from.length) }));
}

/**
 * Merges the results of several pages (or of one page's chunks) into one object of the schema:
 * arrays concatenate and lose duplicates, scalars take the most confident value, objects merge
 * field by field. What was merged, and what lost, is said in the notes.
 */
export function mergeResults(parts: ResultPart[], schema: JsonSchema): ExtractionResult {
  const only = parts[0];
  if (parts.length === 1 && only) return { ...only.result, notes: only.result.notes.map((n) => withUrl(n, only)) };
  const reader = new SchemaReader(schema);
  const root = reader.view(schema);
  const pieces = parts.map((part) => ({ value: part.result.data, notes: part.result.notes, part }));
  const merged = mergeObject(reader, root, '', pieces);
  const general = parts.flatMap((part) => part.result.notes.filter((n) => n.path === '').map((n) => withUrl(n, part)));
  return {
    data: (merged.value as Record<string, unknown> | undefined) ?? {},
    notes: [...general, ...merged.notes],
    llmTokens: parts.reduce((sum, p) => sum + p.result.llmTokens, 0),
  };
}

function mergeValue(reader: SchemaReader, view: SchemaView, path: string, pieces: Piece[]): { value: unknown; notes: FieldNote[] } {
  if (view.kind === 'object') return mergeObject(reader, view, path, pieces);
  if (view.kind === 'array') return mergeArray(reader, view, path, pieces);
  return mergeScalar(path, pieces);
}

function mergeObject(reader: SchemaReader, view: SchemaView, path: string, pieces: Piece[]): { value: unknown; notes: FieldNote[] } {
  const objects = pieces.filter((p) => p.value && typeof p.value === 'object' && !Array.isArray(p.value));
  if (objects.length === 0) return { value: pieces.some((p) => p.value === null) ? null : undefined, notes: firstNotes(path, pieces) };
  const out: Record<string, unknown> = {};
  const notes: FieldNote[] = [];
  for (const [name, sub] of Object.entries(view.properties)) {
    const child = mergeValue(
      reader,
      reader.view(sub),
      childPath(path, name),
      objects.map((p) => ({ ...p, value: (p.value as Record<string, unknown>)[name] })),
    );
    if (child.value !== undefined) out[name] = child.value;
    else if (view.required.includes(name)) out[name] = null;
    notes.push(...child.notes);
  }
  return { value: out, notes };
}

/** The notes of the first part that has any for this path (an unfilled field's "not found"). */
function firstNotes(path: string, pieces: Piece[]): FieldNote[] {
  for (const p of pieces) {
    const notes = p.notes.filter((n) => isWithin(n.path, path));
    if (notes.length > 0) return notes.map((n) => withUrl(n, p.part));
  }
  return [];
}

function mergeScalar(path: string, pieces: Piece[]): { value: unknown; notes: FieldNote[] } {
  const candidates = pieces
    .filter((p) => present(p.value))
    .map((p) => ({ ...p, note: p.notes.find((n) => n.path === path) }))
    .map((c) => ({ ...c, confidence: c.note?.confidence ?? 0 }));
  if (candidates.length === 0) return { value: pieces.some((p) => p.value === null) ? null : undefined, notes: firstNotes(path, pieces) };
  const winner = candidates.reduce((best, c) => (c.confidence > best.confidence ? c : best));
  const note = withUrl(winner.note ?? { path, confidence: 0, source: 'merge', evidence: null }, winner.part);
  if (candidates.length === 1) return { value: winner.value, notes: [note] };
  const agreeing = candidates.filter((c) => canonical(c.value) === canonical(winner.value)).length;
  const others = candidates
    .filter((c) => canonical(c.value) !== canonical(winner.value))
    .map((c) => `${c.part.label}: ${JSON.stringify(c.value)} (${roundConfidence(c.confidence)})`);
  const merge = `merged ${candidates.length} values: ${agreeing} agree on the one from ${winner.part.label} (${roundConfidence(winner.confidence)})${others.length ? `; not taken: ${others.join('; ')}` : ''}`;
  return { value: winner.value, notes: [{ ...note, message: snippet(note.message ? `${note.message}; ${merge}` : merge, 600) }] };
}

function mergeArray(reader: SchemaReader, view: SchemaView, path: string, pieces: Piece[]): { value: unknown; notes: FieldNote[] } {
  const lists = pieces.filter((p) => Array.isArray(p.value) && p.value.length > 0);
  if (lists.length === 0) {
    const value = pieces.some((p) => Array.isArray(p.value)) ? [] : pieces.some((p) => p.value === null) ? null : undefined;
    return { value, notes: firstNotes(path, pieces) };
  }
  const itemsAreObjects = reader.view(view.items).kind === 'object';
  const seen = new Set<string>();
  const out: unknown[] = [];
  const itemNotes: FieldNote[] = [];
  const listNotes: FieldNote[] = [];
  let duplicates = 0;
  const counts: string[] = [];
  for (const piece of lists) {
    const items = piece.value as unknown[];
    let added = 0;
    items.forEach((item, i) => {
      const key = canonical(item);
      if (seen.has(key)) {
        duplicates++;
        return;
      }
      seen.add(key);
      if (itemsAreObjects) itemNotes.push(...rebase(piece.notes, `${path}[${i}]`, `${path}[${out.length}]`).map((n) => withUrl(n, piece.part)));
      out.push(item);
      added++;
    });
    counts.push(`${added} from ${piece.part.label}`);
    const own = piece.notes.find((n) => n.path === path);
    if (own) listNotes.push(withUrl(own, piece.part));
  }
  const sources = [...new Set(listNotes.map((n) => n.source))];
  const confidence = listNotes.length ? Math.min(...listNotes.map((n) => n.confidence)) : 0;
  const note: FieldNote = {
    path,
    confidence: roundConfidence(confidence),
    source: sources.length === 1 ? sources[0]! : 'merge',
    evidence: listNotes.map((n) => n.evidence).find((e) => e !== null) ?? null,
    message: `concatenated ${out.length} item(s): ${counts.join(', ')}${duplicates ? `; ${duplicates} duplicate(s) removed` : ''}`,
  };
  if (lists.length === 1) {
    const only = lists[0]!;
    const own = only.notes.find((n) => n.path === path);
    return { value: out, notes: [...(own ? [withUrl(own, only.part)] : []), ...itemNotes] };
  }
  return { value: out, notes: [note, ...itemNotes] };
}
