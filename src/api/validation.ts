import type { z } from 'zod';
import { AppError, type ErrorDetail } from '../errors';

/** zod issues as `details`, one entry per offending field (each unknown key its own). */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[]): ErrorDetail[] {
  return issues.flatMap((issue) => {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...base, key].join('.'), message: `Unknown field "${key}"` }));
    }
    return [{ path: base.join('.'), message: issue.message }];
  });
}

/** Parses input with a schema, or throws BAD_REQUEST naming every problem. */
export function validate<S extends z.ZodType>(schema: S, input: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const details = issuesToDetails(parsed.error.issues);
  const summary = details
    .slice(0, 3)
    .map((d) => (d.path ? `${d.path}: ${d.message}` : d.message))
    .join('; ');
  throw new AppError('BAD_REQUEST', `Invalid ${what}: ${summary}${details.length > 3 ? ` (and ${details.length - 3} more)` : ''}`, details);
}
