import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One result a fake provider returns: where it points and what its snippet says. */
export interface FakeHit {
  url: string;
  title: string;
  snippet: string;
}

/** What a fake provider does with a query: answer these hits, fail with a status, or never answer. */
export type FakeBehaviour = FakeHit[] | { status: number } | 'hang';

export interface FakeProvider {
  url: string;
  /** Queries received, in order, with the path asked and their parameters. */
  requests: { query: string; path: string; params: Record<string, unknown> }[];
  close(): Promise<void>;
}

async function serve(handle: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => handle(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(res: http.ServerResponse, behaviour: FakeBehaviour, body: () => unknown): void {
  if (behaviour === 'hang') return;
  if ('status' in behaviour) {
    res.writeHead(behaviour.status, { 'content-type': 'text/html' }).end('<html><body>Upstream trouble</body></html>');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body()));
}

/**
 * A server speaking SearXNG's JSON API (`GET /search?q=...&format=json&pageno=N`), answering
 * with results shaped as SearXNG 2024+ returns them; `behave` decides per query.
 */
export async function startFakeSearxng(behave: (query: string) => FakeBehaviour): Promise<FakeProvider> {
  const requests: FakeProvider['requests'] = [];
  const server = await serve((req, _body, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') {
      res.writeHead(403).end('format not allowed');
      return;
    }
    const query = url.searchParams.get('q') ?? '';
    const pageno = Number(url.searchParams.get('pageno') ?? 1);
    requests.push({ query, path: url.pathname, params: Object.fromEntries(url.searchParams) });
    const behaviour = behave(query);
    reply(res, behaviour, () => {
      const hits = Array.isArray(behaviour) && pageno === 1 ? behaviour : [];
      return {
        query,
        number_of_results: hits.length,
        results: hits.map((h, i) => ({
          url: h.url,
          title: h.title,
          content: h.snippet,
          engine: 'duckduckgo',
          parsed_url: ['http', new URL(h.url).host, new URL(h.url).pathname, '', '', ''],
          template: 'default.html',
          engines: ['duckduckgo', 'brave'],
          positions: [i + 1],
          score: 2 / (i + 1),
          category: 'general',
        })),
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      };
    });
  });
  return { ...server, requests };
}

/**
 * A server speaking Serper's API (`POST /search`, and `POST /news` for news, with X-API-KEY),
 * shaped as serper.dev answers (`organic`, or `news` with dates).
 */
export async function startFakeSerper(apiKey: string, behave: (query: string) => FakeBehaviour): Promise<FakeProvider> {
  const requests: FakeProvider['requests'] = [];
  const server = await serve((req, body, res) => {
    const vertical = req.url === '/news' ? 'news' : req.url === '/search' ? 'search' : undefined;
    if (req.method !== 'POST' || !vertical) {
      res.writeHead(404).end();
      return;
    }
    if (req.headers['x-api-key'] !== apiKey) {
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Unauthorized.', statusCode: 403 }));
      return;
    }
    const params = JSON.parse(body) as { q: string; num?: number };
    requests.push({ query: params.q, path: req.url!, params });
    const behaviour = behave(params.q);
    reply(res, behaviour, () => {
      const hits = (behaviour as FakeHit[]).slice(0, params.num ?? 10);
      return vertical === 'news'
        ? { searchParameters: { ...params, type: 'news', engine: 'google' }, news: hits.map((h, i) => ({ title: h.title, link: h.url, snippet: h.snippet, date: '2 hours ago', source: 'Fake News', position: i + 1 })), credits: 1 }
        : { searchParameters: { ...params, type: 'search', engine: 'google' }, organic: hits.map((h, i) => ({ title: h.title, link: h.url, snippet: h.snippet, position: i + 1 })), credits: 1 };
    });
  });
  return { ...server, requests };
}
