import { fetch, type Dispatcher } from 'undici';
import { AppError } from '../errors';
import type { PublicUrlGate } from './public-url-gate';
import { classifyNetworkError } from './classify-network-error';
import { readLimited } from './read-limited';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface HttpFetchOptions {
  gate: PublicUrlGate;
  dispatcher: Dispatcher;
  headers: Record<string, string>;
  /** Aborts the fetch; `timedOut()` tells a deadline from a cancellation. */
  signal: AbortSignal;
  timedOut: () => boolean;
  maxBytes: number;
  maxRedirects: number;
}

export interface FetchedResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  contentType: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Every URL that redirected, in order. */
  redirects: string[];
}

/**
 * GET with redirects followed by hand, so that each hop's URL passes the gate before its
 * socket opens (the dispatcher checks the resolved addresses at connect time).
 */
export async function fetchHttp(start: URL, options: HttpFetchOptions): Promise<FetchedResponse> {
  const redirects: string[] = [];
  let url = start;
  for (;;) {
    let response;
    try {
      response = await fetch(url, {
        dispatcher: options.dispatcher,
        redirect: 'manual',
        headers: options.headers,
        signal: options.signal,
      });
    } catch (err) {
      throw classifyNetworkError(err, url.href, options.timedOut());
    }
    const location = response.headers.get('location');
    if (REDIRECT_STATUSES.has(response.status) && location) {
      await response.body?.cancel();
      if (redirects.length >= options.maxRedirects) {
        throw new AppError('SCRAPE_CONNECTION_ERROR', `${start.href} redirected more than ${options.maxRedirects} times`, undefined, { permanent: true });
      }
      redirects.push(url.href);
      url = options.gate.parse(new URL(location, url).href);
      continue;
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > options.maxBytes) {
      await response.body?.cancel();
      throw new AppError('SCRAPE_TOO_LARGE', `${url.href} is ${declared} bytes, over the ${options.maxBytes}-byte limit`);
    }
    let body: Buffer;
    try {
      body = await readLimited(response.body as ReadableStream<Uint8Array> | null, options.maxBytes, url.href);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw classifyNetworkError(err, url.href, options.timedOut());
    }
    return {
      url: url.href,
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      headers: Object.fromEntries(response.headers),
      body,
      redirects,
    };
  }
}
