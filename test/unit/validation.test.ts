import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors';
import { validate } from '../../src/api/validation';

const refusal = (schema: z.ZodType, input: unknown): AppError => {
  try {
    validate(schema, input, 'request');
  } catch (err) {
    return err as AppError;
  }
  throw new Error('validate accepted the input');
};

describe('validate', () => {
  const shape = z.strictObject({ items: z.array(z.union([z.enum(['a', 'b']), z.strictObject({ kind: z.literal('c'), size: z.number().max(3) })])) });

  it("reports the issues of the one union option that takes input of that kind, at the input's path", () => {
    const err = refusal(shape, { items: ['a', 'x', { kind: 'c', size: 9 }] });
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.details).toEqual([
      { path: 'items.1', message: 'Invalid option: expected one of "a"|"b"' },
      { path: 'items.2.size', message: 'Too big: expected number to be <=3' },
    ]);
    expect(err.message).toBe('Invalid request: items.1: Invalid option: expected one of "a"|"b"; items.2.size: Too big: expected number to be <=3');
  });

  it("keeps the union's own message when several options take input of that kind", () => {
    const either = z.union([z.strictObject({ kind: z.literal('c') }), z.strictObject({ kind: z.literal('d') })]);
    expect(refusal(either, { kind: 'e' }).details).toEqual([{ path: '', message: 'Invalid input' }]);
  });

  it('lists each unknown field on its own', () => {
    expect(refusal(shape, { items: [], extra: 1, more: 2 }).details).toEqual([
      { path: 'extra', message: 'Unknown field "extra"' },
      { path: 'more', message: 'Unknown field "more"' },
    ]);
  });
});
