import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/api/app';
import { openApiDeps } from '../../src/api/api-deps';
import { createLogger } from '../../src/log';
import { api } from '../helpers/api';
import { inProcessConfig } from '../helpers/in-process';

/** Method and OpenAPI path of every route the app registers (nothing connects: both clients are lazy). */
async function registeredRoutes(): Promise<string[]> {
  const config = inProcessConfig();
  const { deps, close } = openApiDeps(config, createLogger('api', 'silent'));
  const { routes } = createApp(deps);
  await close();
  return routes.specs.map((s) => `${s.method.toUpperCase()} ${s.path.replace(/:(\w+)/g, '{$1}')}`);
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const { status, body } = await api('/openapi.json', { key: null });
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('documents every registered route', async () => {
    const { body } = await api('/openapi.json', { key: null });
    const documented = Object.entries(body.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    const registered = await registeredRoutes();
    expect(registered).toEqual(expect.arrayContaining(['POST /v1/scrape', 'GET /v1/team/credit-usage', 'GET /healthz', 'GET /readyz', 'GET /openapi.json', 'GET /docs']));
    expect(documented.sort()).toEqual(registered.sort());
  });

  it('carries the request schema of POST /v1/scrape, strict like the validator', async () => {
    const { body } = await api('/openapi.json', { key: null });
    const operation = body.paths['/v1/scrape'].post;
    expect(operation.security).toEqual([{ bearerAuth: [] }]);
    const schema = operation.requestBody.content['application/json'].schema;
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['url']);
    for (const field of [
      'url', 'formats', 'onlyMainContent', 'includeTags', 'excludeTags', 'headers', 'waitFor', 'timeout', 'mobile',
      'skipTlsVerification', 'removeBase64Images', 'blockAds', 'location', 'maxAge', 'engine', 'origin', 'integration',
    ]) {
      expect(Object.keys(schema.properties)).toContain(field);
    }
    expect(schema.properties.formats).toMatchObject({ type: 'array', default: ['markdown'], items: { enum: expect.arrayContaining(['markdown', 'text', 'html', 'rawHtml', 'links']) } });
    expect(schema.properties.engine).toMatchObject({ enum: ['auto', 'http', 'browser'], default: 'auto' });
    expect(schema.properties.timeout).toMatchObject({ type: 'integer', default: 30000 });
    expect(operation.responses['200'].content['application/json'].schema.properties.data).toEqual({ $ref: '#/components/schemas/Document' });
    expect(Object.keys(body.components.schemas.Document.properties.metadata.properties)).toEqual(expect.arrayContaining(['sourceURL', 'statusCode', 'scrapeId', 'creditsUsed', 'renderer']));
    for (const status of ['400', '401', '402', '403', '408', '429', '502']) expect(Object.keys(operation.responses)).toContain(status);
  });
});

describe('GET /docs', () => {
  it('serves an HTML page whose scripts and stylesheets load', async () => {
    const apiUrl = inject('apiUrl');
    const page = await fetch(`${apiUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const response = await fetch(new URL(asset, `${apiUrl}/docs`));
      const bytes = (await response.arrayBuffer()).byteLength;
      expect({ asset, status: response.status, nonEmpty: bytes > 0 }).toEqual({ asset, status: 200, nonEmpty: true });
      if (asset.endsWith('.js')) expect(response.headers.get('content-type')).toMatch(/javascript/);
      if (asset.endsWith('.css')) expect(response.headers.get('content-type')).toMatch(/^text\/css/);
    }
    expect(html).toContain("url: '/openapi.json'");
  });

  it('answers 404 in the error shape for an unknown asset', async () => {
    const { status, body } = await api('/docs/assets/nope.js', { key: null });
    expect(status).toBe(404);
    expect(body.code).toBe('NOT_FOUND');
  });
});
