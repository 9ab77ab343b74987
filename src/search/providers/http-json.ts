/**
 * A provider's JSON answer, or an error saying what went wrong in words an operator can act
 * on. The signal carries the provider's deadline.
 */
export async function fetchProviderJson(url: string, init: RequestInit & { signal: AbortSignal }): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error' });
  } catch (err) {
    if (init.signal.aborted) throw new Error('no answer in time');
    throw new Error(`could not connect: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`);
  }
  const body = await response.text().catch((err: Error) => {
    throw new Error(init.signal.aborted ? 'no answer in time' : `the answer broke off: ${err.message}`);
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}${body ? `: ${body.slice(0, 200)}` : ''}`);
  try {
    return JSON.parse(body);
  } catch {
    throw new Error(`the answer is not JSON: ${body.slice(0, 100)}`);
  }
}
