import type { FieldNote } from '../db/field-note';
import { snippet, type ExtractionResult } from './extraction-result';
import { getPath, isWithin, parsePath } from './field-path';
import { nullableSchema, type JsonSchema } from '../json-schema/json-schema';
import { schemaProblems, type SchemaProblem } from '../json-schema/schema-validator';

type Container = Record<string, unknown> | unknown[];

function parentOf(data: Container, path: string): { parent: Container; key: string | number } | undefined {
  const parts = parsePath(path);
  const key = parts.pop();
  if (key === undefined) return undefined;
  const parent = parts.length ? getPath(data, parts.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '')) : data;
  return parent !== null && typeof parent === 'object' ? { parent: parent as Container, key } : undefined;
}

/**
 * Makes a result validate against the schema (every property nullable): values that break it
 * are dropped (null, or removed from their array, or an unknown key deleted), deepest first, and
 * each drop replaces that field's note with one that says why.
 */
export function conformToSchema(result: ExtractionResult, schema: JsonSchema): ExtractionResult {
  const widened = nullableSchema(schema);
  const data = structuredClone(result.data);
  let notes = [...result.notes];
  for (let pass = 0; pass < 8; pass++) {
    const problems = schemaProblems(widened, data);
    if (problems.length === 0) return { ...result, data, notes };
    const actionable = problems.filter((p) => p.error.keyword !== 'anyOf' || !problems.some((q) => q !== p && q.path !== p.path && isWithin(q.path, p.path)));
    const leafMost = actionable.filter((p) => !actionable.some((q) => q.path !== p.path && isWithin(q.path, p.path)));
    const byDepthDesc = [...new Map(leafMost.map((p) => [`${p.path}|${p.error.keyword}|${String(p.error.params.missingProperty ?? p.error.params.additionalProperty ?? '')}`, p])).values()].sort((a, b) => {
      // Later array items first, so removing one does not shift the next.
      return b.path.localeCompare(a.path, undefined, { numeric: true });
    });
    for (const problem of byDepthDesc) notes = fix(data, problem, notes);
  }
  throw new Error(`the result still fails the schema: ${schemaProblems(widened, data).map((p) => p.message).join('; ')}`);
}

function fix(data: Record<string, unknown>, problem: SchemaProblem, notes: FieldNote[]): FieldNote[] {
  const { error, path } = problem;
  if (error.keyword === 'required') {
    const missing = String(error.params.missingProperty);
    const target = path ? getPath(data, path) : data;
    if (target && typeof target === 'object' && !Array.isArray(target)) (target as Record<string, unknown>)[missing] = null;
    const full = path ? `${path}.${missing}` : missing;
    return notes.some((n) => n.path === full) ? notes : [...notes, { path: full, confidence: 0, source: 'none', evidence: null, message: 'Not given' }];
  }
  if (error.keyword === 'additionalProperties') {
    const extra = String(error.params.additionalProperty);
    const target = path ? getPath(data, path) : data;
    if (target && typeof target === 'object') delete (target as Record<string, unknown>)[extra];
    const full = path ? `${path}.${extra}` : extra;
    return notes.filter((n) => !isWithin(n.path, full));
  }
  const at = parentOf(data, path);
  if (!at) return notes;
  if (Array.isArray(at.parent)) return dropItem(at.parent, at.key as number, path, problem, notes);
  const value = (at.parent as Record<string, unknown>)[at.key as string];
  (at.parent as Record<string, unknown>)[at.key as string] = null;
  const old = notes.find((n) => n.path === path);
  const dropped: FieldNote = {
    path,
    confidence: 0,
    source: 'schema',
    evidence: old?.evidence ?? null,
    message: snippet(`Dropped ${JSON.stringify(value)}: ${problem.message}`),
  };
  return [...notes.filter((n) => !isWithin(n.path, path)), dropped];
}

/** Removes an array item that breaks the schema; later items' notes move up one place. */
function dropItem(list: unknown[], index: number, path: string, problem: SchemaProblem, notes: FieldNote[]): FieldNote[] {
  const [value] = list.splice(index, 1);
  const listPath = path.slice(0, path.lastIndexOf('['));
  const reason = snippet(`dropped item ${JSON.stringify(value)}: ${problem.message}`);
  const itemPrefix = `${listPath}[`;
  return notes
    .filter((n) => !isWithin(n.path, path))
    .map((n) => {
      if (n.path === listPath) return { ...n, message: n.message ? `${n.message}; ${reason}` : reason };
      if (!n.path.startsWith(itemPrefix)) return n;
      const i = Number(n.path.slice(itemPrefix.length, n.path.indexOf(']', itemPrefix.length)));
      return i > index ? { ...n, path: `${itemPrefix}${i - 1}${n.path.slice(n.path.indexOf(']', itemPrefix.length))}` } : n;
    });
}
