import { z } from 'zod';
import type { RouteSpec } from '../route';
import { errorSchema } from '../schemas/error-schema';

const COMMON_ERRORS: Record<number, string> = {
  400: 'Invalid body or query (BAD_REQUEST, BAD_REQUEST_INVALID_JSON)',
  401: 'Missing, unknown or revoked API key',
  429: "Over the key's or the team's request rate (RATE_LIMITED, with Retry-After and RateLimit-* headers)",
  500: 'Internal error, with an error id that is also logged',
  503: 'Postgres or Temporal is unreachable, or (scrapes, screenshots) the workers are saturated (SERVICE_UNAVAILABLE, with Retry-After); retry later',
};

type Schemas = Record<string, unknown>;

/** Points `#/$defs/X` references at `#/components/schemas/X`, where the definitions are moved. */
function componentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(componentRefs);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace(/^#\/\$defs\//, '#/components/schemas/') : componentRefs(v)]),
  );
}

/**
 * The JSON Schema of a zod schema. Named sub-schemas (`.meta({ id })`) come out as `$defs` of
 * the schema, but a `$ref` in OpenAPI resolves against the whole document, so they are moved to
 * `components.schemas` (collected in `components`) and referenced there.
 */
function jsonSchema(schema: z.ZodType, components: Schemas): Record<string, unknown> {
  const { $schema: _, $defs, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  for (const [name, definition] of Object.entries(($defs ?? {}) as Schemas)) components[name] ??= componentRefs(definition);
  return componentRefs(rest) as Record<string, unknown>;
}

function queryParameters(schema: z.ZodType | undefined, components: Schemas) {
  if (!schema) return [];
  const shape = jsonSchema(schema, components) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(shape.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: shape.required?.includes(name) ?? false,
    schema: s,
    ...(typeof s.description === 'string' && { description: s.description }),
  }));
}

/** The OpenAPI 3.1 document, built from the route table's zod schemas. */
export function buildOpenApiDocument(specs: readonly RouteSpec[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Schemas = {};
  jsonSchema(errorSchema, schemas); // registers Error, which every error response references
  for (const spec of specs) {
    const path = spec.path.replace(/:(\w+)/g, '{$1}');
    const pathParams = [...spec.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(spec.responses)) {
      responses[status] = {
        description: r.description,
        ...(r.schema && { content: { [r.contentType ?? 'application/json']: { schema: jsonSchema(r.schema, schemas) } } }),
      };
    }
    for (const [status, description] of Object.entries(COMMON_ERRORS)) {
      // Keys live in Postgres, so every authenticated route depends on it; public ones name their 503 themselves.
      if ((status === '401' || status === '503') && !spec.auth) continue;
      if (status === '400' && !spec.body && !spec.query) continue;
      responses[status] ??= { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    (paths[path] ??= {})[spec.method] = {
      summary: spec.summary,
      ...(spec.description && { description: spec.description }),
      tags: [spec.tag],
      ...(spec.auth ? { security: [{ bearerAuth: [] }] } : { security: [] }),
      parameters: [...pathParams, ...queryParameters(spec.query, schemas)],
      ...(spec.body && { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(spec.body, schemas) } } } }),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'web-context-service',
      version: '1',
      description:
        'Turns public web pages into context for agents. Wire-compatible with the Firecrawl v1 API where the two overlap. Every error has the shape of the Error schema, including an unknown path (404 NOT_FOUND) and a method a path does not take (405 METHOD_NOT_ALLOWED, with an Allow header).',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key from `wcs keys create` or the one `npm start` prints.' } },
      schemas,
    },
    paths,
  };
}
