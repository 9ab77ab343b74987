import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadWcxb, type WcxbPage } from '../content/wcxb-corpus';

/**
 * The 280 real pages of the WCXB development sample (Murrough Foley 2026, CC-BY-4.0), served
 * from one local server at `/<id>` as their sites served them, for load through the API.
 */
export interface WcxbSite {
  pages: WcxbPage[];
  /** The page's URL on this server. */
  urlOf(page: WcxbPage): string;
  /** Requests each path received. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startWcxbSite(host: string): Promise<WcxbSite> {
  const pages = loadWcxb();
  const byPath = new Map(pages.map((p) => [`/${p.id}`, p]));
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const page = byPath.get(req.url ?? '');
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
  });
  server.listen(0, host);
  await once(server, 'listening');
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    pages,
    urlOf: (page) => `${origin}/${page.id}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
