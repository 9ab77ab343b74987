import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The declarations the installed @mendable/firecrawl-js ships (dist/index.d.ts). */
function declarations(): string {
  const main = createRequire(path.join(process.cwd(), 'package.json')).resolve('@mendable/firecrawl-js');
  return readFileSync(path.join(path.dirname(main), 'index.d.ts'), 'utf8');
}

let cached: string | undefined;

interface Field {
  optional: boolean;
  type: string;
}

/** The top-level fields of an interface the SDK declares, with their type text; undefined when it declares none by that name. */
export function sdkInterface(name: string): Map<string, Field> | undefined {
  cached ??= declarations();
  const start = cached.indexOf(`\ninterface ${name} {\n`);
  if (start < 0) return undefined;
  const fields = new Map<string, Field>();
  let depth = 0;
  let current: { name: string; optional: boolean; type: string } | undefined;
  for (const line of cached.slice(start + 1).split('\n').slice(1)) {
    const opened = (line.match(/[{<(]/g) ?? []).length - (line.match(/[}>)]/g) ?? []).length;
    if (depth === 0) {
      if (/^}/.test(line)) break;
      const m = /^ {4}(\w+)(\?)?: (.*?);?$/.exec(line);
      if (m) current = { name: m[1]!, optional: m[2] === '?', type: m[3]! };
      else current = undefined;
    } else if (current) {
      current.type += ` ${line.trim()}`;
    }
    depth += opened;
    if (depth === 0 && current) {
      fields.set(current.name, { optional: current.optional, type: current.type.replace(/;$/, '') });
      current = undefined;
    }
  }
  return fields;
}

/** Top-level `|` alternatives of a type text. */
function alternatives(type: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let part = '';
  for (const ch of type) {
    if ('{<(['.includes(ch)) depth++;
    if ('}>)]'.includes(ch)) depth--;
    if (ch === '|' && depth === 0) {
      parts.push(part.trim());
      part = '';
    } else part += ch;
  }
  parts.push(part.trim());
  return parts;
}

/** Why `value` is not of the declared `type` (checked as far as plain JSON can be), or null. */
function typeProblem(value: unknown, type: string, where: string): string | null {
  const options = alternatives(type);
  if (options.length > 1) {
    const problems = options.map((t) => typeProblem(value, t, where));
    return problems.includes(null) ? null : `${where}: ${JSON.stringify(value)?.slice(0, 80)} is not ${type}`;
  }
  const t = type.trim();
  if (t === 'unknown' || t === 'any') return null;
  if (t === 'null') return value === null ? null : `${where}: expected null`;
  if (t === 'string' || t === 'number' || t === 'boolean') return typeof value === t ? null : `${where}: expected ${t}, got ${JSON.stringify(value)?.slice(0, 80)}`;
  if (/^"[^"]*"$/.test(t)) return value === JSON.parse(t) ? null : `${where}: expected ${t}, got ${JSON.stringify(value)}`;
  const array = /^(.+)\[\]$/.exec(t) ?? /^Array<(.+)>$/.exec(t);
  if (array) {
    if (!Array.isArray(value)) return `${where}: expected an array`;
    for (const [i, item] of value.entries()) {
      const problem = typeProblem(item, array[1]!.replace(/^\((.*)\)$/, '$1'), `${where}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${where}: expected an object (${t})`;
  if (/^\w+$/.test(t) && sdkInterface(t)) return sdkShapeProblems(value as Record<string, unknown>, t, where)[0] ?? null;
  return null;
}

/**
 * How a JSON object falls short of an interface the SDK declares: required fields missing, and
 * fields whose value is not of the declared type (primitives, literal unions, arrays and the
 * SDK's own interfaces are checked; other generic types only as objects). Empty when it conforms.
 */
export function sdkShapeProblems(value: Record<string, unknown>, name: string, where = name): string[] {
  const fields = sdkInterface(name);
  if (!fields) return [`the SDK declares no interface ${name}`];
  const problems: string[] = [];
  for (const [field, { optional, type }] of fields) {
    if (!(field in value) || value[field] === undefined) {
      if (!optional) problems.push(`${where}.${field}: missing`);
      continue;
    }
    const problem = typeProblem(value[field], type, `${where}.${field}`);
    if (problem) problems.push(problem);
  }
  return problems;
}
