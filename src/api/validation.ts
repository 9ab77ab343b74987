import type { z } from 'zod';
import { AppError, type ErrorDetail } from '../errors';

const atRoot = (branch: readonly z.core.$ZodIssue[]): boolean => branch.length === 1 && branch[0]!.path.length === 0;
/** Whether a union option's issues only say the input is of another kind (a string where it wants an object). */
const wrongKind = (branch: readonly z.core.$ZodIssue[]): boolean => atRoot(branch) && branch[0]!.code === 'invalid_type';
/** An enum refuses an object as it refuses an unknown name, with one issue about the whole input. */
const notAMember = (branch: readonly z.core.$ZodIssue[]): boolean => atRoot(branch) && branch[0]!.code === 'invalid_value';

/**
 * zod issues as `details`, one entry per offending field (each unknown key its own). A union
 * none of whose options matched says only "Invalid input"; when one option alone takes input of
 * that kind (the string form of a format, say), its own issues are what the caller needs.
 */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): ErrorDetail[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...path, key].map(String).join('.'), message: `Unknown field "${key}"` }));
    }
    if (issue.code === 'invalid_union') {
      const sameKind = issue.errors.filter((branch) => !wrongKind(branch));
      // An option that looked inside the input (an object format's fields) says more than an enum's "not one of".
      const inside = sameKind.filter((branch) => !notAMember(branch));
      if (sameKind.length === 1) return issuesToDetails(sameKind[0]!, path);
      if (inside.length === 1) return issuesToDetails(inside[0]!, path);
    }
    return [{ path: path.map(String).join('.'), message: issue.message }];
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
