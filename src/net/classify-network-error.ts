import { AppError } from '../errors';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA']);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_|ERR_OSSL_|HOSTNAME_MISMATCH)/;

function* causes(err: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  for (let e: unknown = err; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    yield e;
  }
}

/**
 * Maps whatever a fetch threw (undici wraps socket errors in `TypeError: fetch failed`) to the
 * documented code. An AppError anywhere in the cause chain (the gate's refusal) wins.
 */
export function classifyNetworkError(err: unknown, url: string, timedOut: boolean): AppError {
  if (timedOut) return new AppError('SCRAPE_TIMEOUT', `Timed out fetching ${url}`);
  for (const e of causes(err)) {
    if (e instanceof AppError) return e;
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (DNS_CODES.has(code)) return new AppError('SCRAPE_DNS_RESOLUTION_ERROR', `Could not resolve the host of ${url}`, undefined, { cause: err });
    if (TLS_CODE.test(code)) return new AppError('SCRAPE_SSL_ERROR', `TLS failed for ${url}: ${(e as Error).message}`, undefined, { cause: err });
  }
  const message = [...causes(err)].map((e) => (e as Error).message).filter(Boolean).at(-1) ?? 'connection failed';
  return new AppError('SCRAPE_CONNECTION_ERROR', `Could not fetch ${url}: ${message}`, undefined, { cause: err });
}
