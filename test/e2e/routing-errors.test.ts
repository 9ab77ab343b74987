import { describe, expect, inject, it } from 'vitest';

/** A raw call, so the test sees the status, headers and body exactly as a client gets them. */
async function call(method: string, path: string, key: string | null = inject('apiKey')) {
  const response = await fetch(`${inject('apiUrl')}${path}`, { method, headers: key ? { authorization: `Bearer ${key}` } : {} });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

function errorBody(text: string, code: string) {
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body).toEqual({ success: false, code, error: expect.any(String) });
  return body;
}

describe('routes that do not match answer in the documented error shape', () => {
  it.each([
    ['GET', '/v1/no-such-route', 'apiKey'],
    ['POST', '/v1/no-such-route', 'apiKey'],
    ['DELETE', '/nothing/here', null],
  ] as const)('%s %s (unknown path) is 404 NOT_FOUND', async (method, path, key) => {
    const { status, headers, text } = await call(method, path, key && inject(key));
    expect(status).toBe(404);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(errorBody(text, 'NOT_FOUND').error).toContain(path);
  });

  it.each([
    ['DELETE', '/v1/scrape', ['POST']],
    ['GET', '/v1/scrape', ['POST']],
    ['PUT', '/v1/crawl/some-id', ['DELETE', 'GET', 'HEAD']],
    ['POST', '/healthz', ['GET', 'HEAD']],
  ])('%s %s (known path, wrong method) is 405 METHOD_NOT_ALLOWED with Allow', async (method, path, allowed) => {
    const { status, headers, text } = await call(method, path);
    expect(status).toBe(405);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('allow')?.split(/,\s*/).sort()).toEqual(allowed);
    const body = errorBody(text, 'METHOD_NOT_ALLOWED');
    expect(body.error).toContain(method);
  });

  it('a wrong method answers 405 before the key is checked', async () => {
    const { status, headers, text } = await call('DELETE', '/v1/scrape', null);
    expect(status).toBe(405);
    expect(headers.get('allow')).toBe('POST');
    errorBody(text, 'METHOD_NOT_ALLOWED');
  });

  it('a method no route implements is 501 NOT_IMPLEMENTED', async () => {
    const { status, headers, text } = await call('PROPFIND', '/v1/scrape');
    expect(status).toBe(501);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    errorBody(text, 'NOT_IMPLEMENTED');
  });

  it('OPTIONS still answers 200 with Allow', async () => {
    const { status, headers } = await call('OPTIONS', '/v1/scrape', null);
    expect(status).toBe(200);
    expect(headers.get('allow')).toBe('POST');
  });

  it('the OpenAPI document names 404, 405 and 503', async () => {
    const document = (await (await fetch(`${inject('apiUrl')}/openapi.json`)).json()) as {
      info: { description: string };
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(document.info.description).toMatch(/404 NOT_FOUND.*405 METHOD_NOT_ALLOWED/);
    expect(Object.keys(document.paths['/v1/scrape']!.post!.responses)).toContain('503');
    expect(Object.keys(document.paths['/healthz']!.get!.responses)).not.toContain('503');
  });
});
