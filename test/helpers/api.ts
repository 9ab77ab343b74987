import { inject } from 'vitest';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls the running API as a client would; the key defaults to the test team's. */
export async function api<T = any>(
  path: string,
  init: { method?: string; body?: unknown; rawBody?: string; key?: string | null; baseUrl?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = init.key === undefined ? inject('apiKey') : init.key;
  if (key) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${init.baseUrl ?? inject('apiUrl')}${path}`, {
    method: init.method ?? (init.body !== undefined || init.rawBody !== undefined ? 'POST' : 'GET'),
    headers,
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: body as T };
}

/** A fixture page's absolute URL. */
export function fixture(path: string): string {
  return `${inject('fixtureUrl')}${path}`;
}
