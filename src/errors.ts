/** Every error code the API can answer with, and its HTTP status (API.md, "Conventions"). */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  BAD_REQUEST_INVALID_JSON: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_CREDITS: 402,
  URL_BLOCKED: 403,
  NOT_FOUND: 404,
  /** The path exists but not with this method; the `Allow` header lists the methods it takes. */
  METHOD_NOT_ALLOWED: 405,
  SCRAPE_TIMEOUT: 408,
  IDEMPOTENCY_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  /** An action failed while running (the message names its index); 400 when validation catches it first. */
  SCRAPE_ACTION_ERROR: 422,
  /** A screenshot's `selector` matched no visible element. */
  SCREENSHOT_SELECTOR_NOT_FOUND: 422,
  LLM_NOT_CONFIGURED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  /** An HTTP method the API implements on no path at all (TRACE, say). */
  NOT_IMPLEMENTED: 501,
  SCRAPE_DNS_RESOLUTION_ERROR: 502,
  SCRAPE_CONNECTION_ERROR: 502,
  SCRAPE_SSL_ERROR: 502,
  SCRAPE_TOO_LARGE: 502,
  LLM_ERROR: 502,
  /** Every configured search provider failed or timed out; the message names each. */
  SEARCH_PROVIDER_ERROR: 502,
  /** Postgres or Temporal is unreachable (or /readyz failed a check); carries `Retry-After`. */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * A scrape that outlived its client's `timeout` and goes on (408 SCRAPE_TIMEOUT, in Firecrawl's
 * shape): the same request sent again after `retryAfterSeconds` gets its document.
 */
export interface ContinuingDetails {
  state: 'processing_continues';
  retryAfterSeconds: number;
  /** The job the same request will be answered from. */
  scrapeId: string;
}

/** A failure with a documented code; anything else that escapes is an INTERNAL_ERROR. */
export class AppError extends Error {
  readonly status: number;
  /** Retrying cannot help. Defaults by code (PERMANENT_ERROR_CODES); set for cases like a redirect loop. */
  readonly permanent: boolean;
  /** Sent as `Retry-After`: when the same request may succeed (RATE_LIMITED, SERVICE_UNAVAILABLE). */
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[] | ContinuingDetails,
    options?: { cause?: unknown; permanent?: boolean; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
    this.permanent = options?.permanent ?? PERMANENT_ERROR_CODES.includes(code);
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}

/** Codes that mean the same request will fail again: an activity must not retry them. */
export const PERMANENT_ERROR_CODES: ErrorCode[] = [
  'BAD_REQUEST',
  'URL_BLOCKED',
  'SCRAPE_TIMEOUT',
  'SCRAPE_DNS_RESOLUTION_ERROR',
  'SCRAPE_SSL_ERROR',
  'SCRAPE_TOO_LARGE',
  'INSUFFICIENT_CREDITS',
  'SCRAPE_ACTION_ERROR',
  'SCREENSHOT_SELECTOR_NOT_FOUND',
  'LLM_NOT_CONFIGURED',
  // The provider chain already fell back; a retry would only outlive the search's timeout.
  'SEARCH_PROVIDER_ERROR',
];
