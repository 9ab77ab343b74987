import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../../errors';
import { buildOpenApiDocument } from '../openapi/openapi-document';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';

const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>web-context-service API</title>
  <link rel="icon" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true, tryItOutEnabled: true });</script>
</body>
</html>`;

/** /openapi.json, and a readable page at /docs served from the local swagger-ui-dist (no CDN). */
export function registerDocsRoutes(routes: RouteTable, deps: ApiDeps): void {
  let document: Record<string, unknown> | undefined;
  routes.add({
    method: 'get',
    path: '/openapi.json',
    tag: 'Operations',
    summary: 'This OpenAPI 3.1 document',
    auth: false,
    responses: { 200: { description: 'OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
    handler: async (ctx) => {
      // Built on first request: every route is registered by then.
      document ??= buildOpenApiDocument(routes.specs, deps.config.PUBLIC_URL);
      ctx.body = document;
    },
  });
  if (!deps.config.DOCS_ENABLED) return;
  routes.add({
    method: 'get',
    path: '/docs',
    tag: 'Operations',
    summary: 'Human-readable API documentation',
    auth: false,
    responses: { 200: { description: 'HTML page', schema: z.string(), contentType: 'text/html' } },
    handler: async (ctx) => {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE;
    },
  });
  routes.add({
    method: 'get',
    path: '/docs/assets/:file',
    tag: 'Operations',
    summary: 'Static assets of the documentation page',
    auth: false,
    responses: { 200: { description: 'Asset' } },
    handler: async (ctx) => {
      const file = ctx.params.file ?? '';
      const type = ASSETS[file];
      if (!type) throw new AppError('NOT_FOUND', `No asset ${file}`);
      ctx.type = type;
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = await readFile(path.join(SWAGGER_DIR, file));
    },
  });
}
