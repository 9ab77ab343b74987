import { AppError, isErrorCode, type ErrorDetail } from '../errors';

/**
 * This service's own HTTP API, called with the MCP caller's key, so that authentication,
 * credits, rate limits and validation happen where they happen for every other client.
 */
export class ApiClient {
  constructor(
    /** Base URL of the API, without a trailing slash. */
    readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  get<T = any>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }

  post<T = any>(path: string, body: unknown): Promise<T> {
    return this.call<T>('POST', path, body);
  }

  patch<T = any>(path: string, body: unknown): Promise<T> {
    return this.call<T>('PATCH', path, body);
  }

  delete<T = any>(path: string): Promise<T> {
    return this.call<T>('DELETE', path);
  }

  /**
   * An image a screenshot returned, read from this API whatever host PUBLIC_URL names (its URL
   * is a capability URL: no key needed).
   */
  async image(url: string): Promise<{ bytes: Buffer; mimeType: string }> {
    const response = await fetch(`${this.baseUrl}${new URL(url).pathname}`);
    if (!response.ok) throw new AppError('NOT_FOUND', `The screenshot image ${url} answered HTTP ${response.status}`);
    return { bytes: Buffer.from(await response.arrayBuffer()), mimeType: response.headers.get('content-type') ?? 'image/png' };
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }).catch((err: unknown) => {
      const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
      throw new AppError('SERVICE_UNAVAILABLE', `Could not reach the API at ${this.baseUrl}: ${cause}`, undefined, { cause: err });
    });
    const text = await response.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.ok && parsed !== undefined) return parsed as T;
    // Our error shape (API.md) becomes the same typed error, so the tool says what the API said.
    const code = isErrorCode(parsed?.code) ? parsed.code : 'INTERNAL_ERROR';
    const message = typeof parsed?.error === 'string' ? parsed.error : `${method} ${path} answered HTTP ${response.status}: ${text.slice(0, 200)}`;
    throw new AppError(code, message, Array.isArray(parsed?.details) ? (parsed.details as ErrorDetail[]) : undefined, {
      ...(response.headers.has('retry-after') && { retryAfterSeconds: Number(response.headers.get('retry-after')) }),
    });
  }
}
