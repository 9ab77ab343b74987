import type { FieldNote } from '../db/field-note';
import { roundConfidence, type ExtractionResult } from './extraction-result';
import { childPath, isWithin } from './field-path';
import { SchemaReader, type JsonSchema, type SchemaView } from '../json-schema/json-schema';
import { canonical } from './merge-results';

const filled = (v: unknown) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0);
/** Two engines agreeing is stronger than either, but never certainty. */
const MAX_AGREED = 0.99;
/** A value one engine gives and the other contradicts. */
const DISPUTED_FACTOR = 0.85;

/**
 * The LLM's answer checked against the structured data: where both give the same value the
 * confidence rises; where only one has a value it is kept; where they differ the more confident
 * one wins, marked down and with the other value in its note.
 */
export function combineEngines(llm: ExtractionResult, structured: ExtractionResult, schema: JsonSchema): ExtractionResult {
  const reader = new SchemaReader(schema);
  const notes: FieldNote[] = [...llm.notes.filter((n) => n.path === ''), ...structured.notes.filter((n) => n.path === '')];
  const data = combine(reader, reader.view(schema), '', llm, structured, llm.data, structured.data, notes) as Record<string, unknown>;
  return { data: data ?? {}, notes, llmTokens: llm.llmTokens };
}

function combine(reader: SchemaReader, view: SchemaView, path: string, llm: ExtractionResult, sd: ExtractionResult, l: unknown, s: unknown, notes: FieldNote[]): unknown {
  const under = (r: ExtractionResult) => r.notes.filter((n) => n.path !== '' && isWithin(n.path, path));
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (view.kind === 'object' && (isObject(l) || isObject(s))) {
    const out: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries(view.properties)) {
      const child = childPath(path, name);
      const lv = isObject(l) ? (l as Record<string, unknown>)[name] : undefined;
      const sv = isObject(s) ? (s as Record<string, unknown>)[name] : undefined;
      const value = combine(reader, reader.view(sub), child, llm, sd, lv, sv, notes);
      if (value !== undefined) out[name] = value;
      else if (view.required.includes(name)) out[name] = null;
    }
    return out;
  }
  if (view.kind === 'array' && reader.view(view.items).kind === 'object') {
    // Lists of records are taken whole from one engine; their items' notes stay with them.
    const take = filled(l) || !filled(s) ? llm : sd;
    notes.push(...under(take));
    return take === llm ? l : s;
  }
  const ln = llm.notes.find((n) => n.path === path);
  const sn = sd.notes.find((n) => n.path === path);
  if (filled(l) && filled(s)) {
    const lc = ln?.confidence ?? 0;
    const sc = sn?.confidence ?? 0;
    if (canonical(l) === canonical(s)) {
      notes.push({
        path,
        confidence: roundConfidence(Math.min(MAX_AGREED, 1 - (1 - lc) * (1 - sc))),
        source: `llm+${sn?.source ?? 'structured-data'}`,
        evidence: (lc >= 0.5 ? ln?.evidence : sn?.evidence) ?? sn?.evidence ?? ln?.evidence ?? null,
        message: `both engines agree (llm ${lc}, ${sn?.source ?? 'structured data'} ${sc})`,
      });
      return l;
    }
    const llmWins = lc >= sc;
    const [winner, loser, other] = llmWins ? [ln, sn, s] : [sn, ln, l];
    notes.push({
      path,
      confidence: roundConfidence((winner?.confidence ?? 0) * DISPUTED_FACTOR),
      source: winner?.source ?? (llmWins ? 'llm' : 'structured-data'),
      evidence: winner?.evidence ?? null,
      message: `${winner?.message ? `${winner.message}; ` : ''}the engines disagree: ${loser?.source ?? 'the other engine'} said ${JSON.stringify(other)} (${loser?.confidence ?? 0})`,
    });
    return llmWins ? l : s;
  }
  if (filled(l)) {
    if (ln) notes.push(ln);
    return l;
  }
  if (filled(s)) {
    if (sn) notes.push({ ...sn, message: `${sn.message ? `${sn.message}; ` : ''}the model gave no value` });
    return s;
  }
  notes.push(ln ?? sn ?? { path, confidence: 0, source: 'none', evidence: null, message: 'Not found on the page' });
  return l === undefined ? s : l;
}
