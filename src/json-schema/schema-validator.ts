import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './json-schema';

export interface SchemaProblem {
  /** Dotted path into the validated value (`offers.price`, `tags[2]`); '' is the value itself. */
  path: string;
  message: string;
  error: ErrorObject;
}

/** One Ajv per draft; `strict: false` so hints such as `x-selector` are allowed. */
function makeAjv(Kind: typeof Ajv | typeof Ajv2019 | typeof Ajv2020) {
  const ajv = new Kind({ strict: false, allErrors: true, validateSchema: true });
  addFormats(ajv);
  return ajv;
}
const draft07 = makeAjv(Ajv);
const draft2019 = makeAjv(Ajv2019);
const draft2020 = makeAjv(Ajv2020);

function ajvFor(schema: JsonSchema) {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return draft2020;
  if (declared.includes('2019-09')) return draft2019;
  return draft07;
}

const CACHE_SIZE = 200;
const cache = new Map<string, ValidateFunction>();

/** Compiles (and caches) a schema; throws Ajv's own message when the schema itself is invalid. */
export function compileSchema(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  const { $schema: _declared, $id: _id, ...body } = schema;
  const validate = ajvFor(schema).compile(body);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, validate);
  return validate;
}

/** Ajv's `/offers/0/price` as `offers[0].price`. */
export function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/** Every way `value` fails `schema`, or [] when it validates. */
export function schemaProblems(schema: JsonSchema, value: unknown): SchemaProblem[] {
  const validate = compileSchema(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => {
    const path = pointerToPath(error.instancePath);
    return { path, message: `${path || 'the object'} ${error.message ?? 'is invalid'}`, error };
  });
}

/** Why a caller's extraction schema cannot be used, or [] when it can. */
export function extractSchemaProblems(schema: JsonSchema): string[] {
  const rootType = schema.type;
  const isObjectSchema = rootType === 'object' || (Array.isArray(rootType) && rootType.includes('object')) || (rootType === undefined && typeof schema.properties === 'object');
  if (!isObjectSchema) return ['must describe an object: {"type": "object", "properties": {...}}'];
  try {
    compileSchema(schema);
    return [];
  } catch (err) {
    return [`is not a valid JSON Schema: ${(err as Error).message}`];
  }
}
