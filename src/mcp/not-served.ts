import { z } from 'zod';

/**
 * firecrawl-mcp's parameters (or values) that this service does not serve, each with why. The
 * rule: such a parameter is refused, whatever its value, by an error that names it and says why,
 * so a prompt written for firecrawl-mcp learns what to leave out instead of losing it silently.
 */
export type NotServed = Readonly<Record<string, string>>;

function refusal(name: unknown, notServed: NotServed): string | undefined {
  return typeof name === 'string' && Object.hasOwn(notServed, name) ? `"${name}" is not served here: ${notServed[name]}.` : undefined;
}

/**
 * Arguments (a tool's, or nested options) as a strict object: a key not in `shape` is refused,
 * with the reason when firecrawl-mcp has it. Its JSON Schema lists only what is served.
 */
export function strictParams<S extends z.ZodRawShape>(shape: S, notServed: NotServed = {}) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => (refusal(key, notServed) ?? `"${key}" is not an accepted parameter.`) + ' Leave it out.').join(' ')
        : undefined,
  });
}

/** An enum of the values served; a value firecrawl-mcp has and we do not is refused with why. */
export function servedEnum<const T extends readonly [string, ...string[]]>(values: T, notServed: NotServed) {
  return z.enum(values, { error: (issue) => (issue.code === 'invalid_value' ? refusal(issue.input, notServed) : undefined) });
}

/** A value given as its name or as `{type: name}` (firecrawl's search sources and categories). */
export function servedType<const T extends readonly [string, ...string[]]>(values: T, notServed: NotServed) {
  const name = servedEnum(values, notServed);
  return z.union([name, strictParams({ type: name })], {
    error: (issue) => refusal(typeof issue.input === 'object' ? (issue.input as { type?: unknown } | null)?.type : issue.input, notServed),
  });
}
