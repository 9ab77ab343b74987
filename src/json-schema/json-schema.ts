/** A JSON Schema as the caller sent it. */
export type JsonSchema = Record<string, unknown>;

export type SchemaKind = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'any';

/** One schema node with `$ref`, single `allOf` and nullable `anyOf`/`oneOf` resolved. */
export interface SchemaView {
  kind: SchemaKind;
  node: JsonSchema;
  properties: Record<string, unknown>;
  required: string[];
  items?: unknown;
  enum?: unknown[];
  format?: string;
  description?: string;
  title?: string;
  /** `x-selector`: a CSS selector that picks the value from the page. */
  selector?: string;
}

const KINDS = new Set<string>(['object', 'array', 'string', 'number', 'integer', 'boolean']);
const MAX_REF_DEPTH = 16;

function isObject(v: unknown): v is JsonSchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads a schema node by node; `$ref`s are followed lazily, so recursive schemas are fine. */
export class SchemaReader {
  constructor(readonly root: JsonSchema) {}

  view(input: unknown): SchemaView {
    const node = this.resolve(input);
    const types = (Array.isArray(node.type) ? node.type : [node.type]).filter((t): t is string => typeof t === 'string' && KINDS.has(t));
    let kind: SchemaKind = (types[0] as SchemaKind | undefined) ?? 'any';
    if (kind === 'any') {
      if (isObject(node.properties)) kind = 'object';
      else if (node.items !== undefined) kind = 'array';
      else if (Array.isArray(node.enum)) kind = kindOfValue(node.enum.find((v) => v !== null));
      else if ('const' in node) kind = kindOfValue(node.const);
    }
    const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
    const view: SchemaView = {
      kind,
      node,
      properties: isObject(node.properties) ? node.properties : {},
      required: Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === 'string') : [],
    };
    if (node.items !== undefined) view.items = node.items;
    if (Array.isArray(node.enum)) view.enum = node.enum.filter((v) => v !== null);
    else if ('const' in node && node.const !== null) view.enum = [node.const];
    const format = text(node.format);
    if (format) view.format = format;
    const description = text(node.description);
    if (description) view.description = description;
    const title = text(node.title);
    if (title) view.title = title;
    const selector = text(node['x-selector']);
    if (selector) view.selector = selector;
    return view;
  }

  /** Follows `$ref` and unwraps the combinators extraction schemas use for "T or null". */
  private resolve(input: unknown, depth = 0): JsonSchema {
    if (!isObject(input) || depth > MAX_REF_DEPTH) return {};
    if (typeof input.$ref === 'string') {
      const { $ref, ...rest } = input;
      return { ...this.resolve(this.pointer($ref), depth + 1), ...rest };
    }
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = input[key];
      if (Array.isArray(options)) {
        const real = options.filter((o) => !(isObject(o) && o.type === 'null'));
        if (real.length >= 1) {
          const { [key]: _drop, ...rest } = input;
          return { ...this.resolve(real[0], depth + 1), ...rest };
        }
      }
    }
    if (Array.isArray(input.allOf) && input.allOf.length === 1) {
      const { allOf, ...rest } = input;
      return { ...this.resolve(allOf[0], depth + 1), ...rest };
    }
    return input;
  }

  private pointer(ref: string): unknown {
    if (!ref.startsWith('#')) return {};
    const parts = ref
      .slice(1)
      .split('/')
      .filter(Boolean)
      .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
    let at: unknown = this.root;
    for (const part of parts) at = isObject(at) ? at[part] : undefined;
    return at;
  }
}

function kindOfValue(v: unknown): SchemaKind {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return 'any';
}

/** Keys whose values are data, not subschemas. */
const DATA_KEYS = new Set(['enum', 'const', 'default', 'examples', 'required', 'x-selector']);

/**
 * The schema every result is validated against: the caller's, with each property also allowed
 * to be null, because a field the page does not state is null rather than invented.
 */
export function nullableSchema(schema: JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (DATA_KEYS.has(key)) out[key] = value;
      else if (key === 'properties' && isObject(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, { anyOf: [walk(sub), { type: 'null' }] }]));
      } else out[key] = walk(value);
    }
    return out;
  };
  return walk(schema) as JsonSchema;
}

/** Splits `camelCase`, `snake_case`, `kebab-case` and spaces into lower-case words. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** A property or label name in one comparable form: `date_published` = `datePublished`. */
export function normalizeName(name: string): string {
  return nameWords(name).join('');
}
