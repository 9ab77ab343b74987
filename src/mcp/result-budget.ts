import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** One part of a result that was shortened to fit the budget. */
export interface Cut {
  /** Where it sits in the result: `markdown`, `data`, `data[0].markdown`. */
  path: string;
  unit: 'characters' | 'items';
  /** Position of the first kept character or item in the whole. */
  from: number;
  kept: number;
  total: number;
}

/** A result as JSON text within a number of characters, and what was cut to get there. */
export interface Fitted {
  text: string;
  cuts: Cut[];
  /** Length of the whole result's JSON, before any cut. */
  totalChars: number;
}

export interface FitOptions {
  /**
   * Top-level string fields that were read from an offset (a continued scrape): their cuts count
   * from there, and their total includes what came before.
   */
  readFrom?: { fields: readonly string[]; offset: number };
}

/** Strings are not cut below this, so every kept field still says something. */
const MIN_STRING = 200;
/** Room left for the note that says what was cut and how to get the rest. */
const NOTE_ROOM = 800;
const CUT_MARK = '…';

interface Slot {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
  path: string;
  size: number;
}

function render(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** Every string and array that can still give up characters, with its rendered size. */
function slots(value: unknown, path: string, parent: Slot['parent'] | undefined, key: string | number, out: Slot[]): void {
  if (typeof value === 'string') {
    if (parent && value.length > MIN_STRING + CUT_MARK.length) out.push({ parent, key, path, size: JSON.stringify(value).length });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    if (parent && value.length > 1) out.push({ parent, key, path, size: JSON.stringify(value).length });
    value.forEach((item, i) => slots(item, `${path}[${i}]`, value, i, out));
    return;
  }
  for (const [k, v] of Object.entries(value)) slots(v, path ? `${path}.${k}` : k, value as Record<string, unknown>, k, out);
}

function get(slot: Slot): unknown {
  return (slot.parent as Record<string | number, unknown>)[slot.key];
}

function set(slot: Slot, value: unknown): void {
  (slot.parent as Record<string | number, unknown>)[slot.key] = value;
}

/** Shortens one string or array by about `excess` characters, recording the cut. */
function shrink(slot: Slot, excess: number, cuts: Map<string, Cut>, o: FitOptions): void {
  const previous = cuts.get(slot.path);
  const value = get(slot);
  if (typeof value === 'string') {
    const whole = previous ? value.slice(0, -CUT_MARK.length) : value;
    const keep = Math.max(MIN_STRING, Math.min(whole.length - 1, whole.length - excess - CUT_MARK.length));
    set(slot, whole.slice(0, keep) + CUT_MARK);
    const offset = o.readFrom?.fields.includes(slot.path) ? o.readFrom.offset : 0;
    cuts.set(slot.path, { path: slot.path, unit: 'characters', from: offset, kept: keep, total: previous?.total ?? offset + whole.length });
    return;
  }
  const items = value as unknown[];
  let keep = items.length;
  for (let freed = 0; keep > 1 && freed < excess; keep--) freed += JSON.stringify(items[keep - 1]).length + 2;
  set(slot, items.slice(0, keep));
  cuts.set(slot.path, { path: slot.path, unit: 'items', from: 0, kept: keep, total: previous?.total ?? items.length });
  // Cuts inside the items just dropped no longer describe anything shown.
  for (const path of cuts.keys()) {
    const index = path.startsWith(`${slot.path}[`) ? Number.parseInt(path.slice(slot.path.length + 1), 10) : -1;
    if (index >= keep) cuts.delete(path);
  }
}

/**
 * `value` as JSON of at most `room` characters: the largest string or list is shortened first
 * (lists lose whole items from the end), again until the whole fits.
 */
export function fitJson(value: unknown, room: number, o: FitOptions = {}): Fitted {
  const copy = structuredClone(value);
  const full = render(copy);
  const cuts = new Map<string, Cut>();
  let text = full;
  while (text.length > room) {
    const candidates: Slot[] = [];
    slots(copy, '', undefined, '', candidates);
    const largest = candidates.sort((a, b) => b.size - a.size)[0];
    if (!largest) {
      // Only many small fields left: cut the text itself.
      cuts.set('', { path: '(the JSON text)', unit: 'characters', from: 0, kept: room, total: full.length });
      text = text.slice(0, room);
      break;
    }
    shrink(largest, text.length - room, cuts, o);
    text = render(copy);
  }
  return { text, cuts: [...cuts.values()], totalChars: full.length };
}

const n = (x: number) => x.toLocaleString('en-US');

function describeCut(c: Cut): string {
  return c.unit === 'items'
    ? `- ${c.path}: kept ${n(c.kept)} of ${n(c.total)} items`
    : `- ${c.path}: kept characters ${n(c.from)}–${n(c.from + c.kept)} of ${n(c.total)}`;
}

/** The note put before a cut result: what was kept of how much, and how to get the rest. */
export function truncationNote(fitted: Fitted, budget: number, howToGetTheRest: string): string {
  const shown = fitted.cuts.slice(0, 6).map(describeCut);
  if (fitted.cuts.length > shown.length) shown.push(`- and ${fitted.cuts.length - shown.length} more fields`);
  return [
    `TRUNCATED: this result was cut to fit the ${n(budget)}-character budget (MCP_RESULT_MAX_CHARS); it shows ${n(fitted.text.length)} of ${n(fitted.totalChars)} characters.`,
    ...shown,
    `To get the rest: ${howToGetTheRest}`,
  ].join('\n');
}

/**
 * A tool result of at most `budget` characters. `howToGetTheRest` is asked only when something
 * was cut, with what was cut, so a tool can name the cursor that continues it.
 */
export function budgetedResult(value: unknown, budget: number, howToGetTheRest: (cuts: Cut[]) => string, o: FitOptions = {}): CallToolResult {
  const whole = fitJson(value, budget, o);
  if (whole.cuts.length === 0) return { content: [{ type: 'text', text: whole.text }] };
  const fitted = fitJson(value, budget - NOTE_ROOM, o);
  const note = truncationNote(fitted, budget, howToGetTheRest(fitted.cuts)).slice(0, NOTE_ROOM);
  return { content: [{ type: 'text', text: note }, { type: 'text', text: fitted.text }] };
}
