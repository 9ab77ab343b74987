import { SdkError } from '@mendable/firecrawl-js';
import { expect } from 'vitest';

/** The SDK's error for a call the API refused (the SDK throws it; anything else fails the test). */
export async function refusal(call: Promise<unknown>): Promise<SdkError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SdkError);
  return err as SdkError;
}
