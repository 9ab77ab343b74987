import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { hugeAttributePage, manyElementsPage, manyLinksPage, nestedDivsPage } from '../fixtures/pathological-pages';

/** Children per page of the tree. */
const FANOUT = 4;

export interface ChaosSite {
  server: FixtureServer;
  url: string;
  /** Pages a crawl from `/` reaches: all of them, each answering 200 (the failing ones once healed). */
  pages: number;
  /** Makes the failing pages answer 200 from now on. */
  heal(): void;
  close(): Promise<void>;
}

const pathOf = (i: number) => (i === 0 ? '/' : `/p/${i}`);

/**
 * A site of `pages` pages in a tree (page i links to pages 4i+1..4i+4), every one answering 200
 * after `delayMs` (those numbered in `failing` answer 500 until healed): a crawl of it has one
 * right answer, so pages lost and charged twice are counts.
 */
export async function startTreeSite(host: string, pages: number, delayMs: number, failing: number[] = []): Promise<ChaosSite> {
  let healed = false;
  const page = (i: number) => {
    const links = Array.from({ length: FANOUT }, (_, k) => FANOUT * i + k + 1).filter((c) => c < pages);
    return `<!doctype html><html><head><title>Page ${i}</title></head><body><h1>Page ${i}</h1><p>Tides and harbours, page ${i} of the chaos site.</p>${links.map((c) => `<a href="${pathOf(c)}">Page ${c}</a>`).join(' ')}</body></html>`;
  };
  const server = await startFixtureServer(
    {
      '/': (_req, res) => setTimeout(() => html(res, page(0)), delayMs),
      '/p/*': (_req, res, url) => {
        const i = Number(url.pathname.slice(3));
        if (!Number.isInteger(i) || i <= 0 || i >= pages) return html(res, 'not found', 404);
        if (!healed && failing.includes(i)) return html(res, 'failing until healed', 500);
        setTimeout(() => html(res, page(i)), delayMs);
      },
      '/small': (_req, res) => html(res, '<!doctype html><html><head><title>Small</title></head><body><h1>Small</h1><p>A small ordinary page.</p></body></html>'),
    },
    host,
  );
  return { server, url: server.url, pages, heal: () => void (healed = true), close: () => server.close() };
}

/**
 * The hostile pages of the isolation issue behind one start page, plus ordinary pages: 100,000
 * links, 100,000 nested divs, a 4 MB attribute, a million elements.
 */
export async function startHostileSite(host: string): Promise<{ url: string; close(): Promise<void> }> {
  const hostile = { '/links': manyLinksPage(), '/nested': nestedDivsPage(), '/attribute': hugeAttributePage(4 * 1024 * 1024), '/elements': manyElementsPage() };
  const start = `<!doctype html><html><head><title>Hostile</title></head><body>${Object.keys(hostile)
    .map((p) => `<a href="${p}">${p}</a>`)
    .join(' ')}</body></html>`;
  const server = await startFixtureServer(
    {
      '/': (_req, res) => html(res, start),
      ...Object.fromEntries(Object.entries(hostile).map(([p, body]) => [p, (_req, res) => html(res, body)] as const)),
      '/item/*': (_req, res, url) => html(res, `<!doctype html><html><head><title>Item</title></head><body><p>Item ${url.pathname}</p></body></html>`),
    },
    host,
  );
  return { url: server.url, close: () => server.close() };
}
