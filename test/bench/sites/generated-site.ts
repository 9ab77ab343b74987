import { html, startFixtureServer, type FixtureServer } from '../../fixtures/fixture-server';
import { seededRandom } from '../../fixtures/seeded-random';

const WORDS =
  'harbour light keeper lens beam tide coast rock tower signal fog horn vessel chart bearing reef storm night watch lamp oil mirror glass stair gallery lantern island pier wave current shoal buoy channel beacon navigation mariner ship'.split(
    ' ',
  );

export interface GeneratedSite {
  server: FixtureServer;
  url: string;
  pages: number;
  /** Mean page size in bytes. */
  meanBytes: number;
  close(): Promise<void>;
}

/**
 * A realistic site for crawl benchmarks: `pages` pages of 20–60 KB, each with a navigation
 * menu and a footer of dozens of links, a sidebar, an article with paragraphs, lists, a table
 * and code, and links to related pages. Every page is reachable from / within a few hops.
 */
export async function startGeneratedSite(host: string, pages: number, seed = 42): Promise<GeneratedSite> {
  const pathOf = (i: number) => (i === 0 ? '/' : `/section-${i % 20}/topic-${Math.floor(i / 20)}/page-${i}`);
  const indexOf = (path: string): number | null => {
    if (path === '/') return 0;
    const m = /^\/section-\d+\/topic-\d+\/page-(\d+)$/.exec(path);
    const i = m ? Number(m[1]) : NaN;
    return Number.isInteger(i) && i > 0 && i < pages && pathOf(i) === path ? i : null;
  };
  // Pages are made on request from their own seed, so a 20,000-page site costs no memory.
  const pageHtml = (i: number): string => {
    const rnd = seededRandom(seed * 1_000_003 + i);
    const word = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
    const sentence = (n: number) => `${Array.from({ length: n }, word).join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
    const nav = Array.from({ length: 40 }, (_, k) => `<li><a href="${pathOf(k + 1)}">${WORDS[k % WORDS.length]} ${k}</a></li>`).join('');
    const footer = Array.from({ length: 30 }, (_, k) => `<a href="${pathOf(((k + 1) * 37) % pages)}">${WORDS[(k * 7) % WORDS.length]} ${WORDS[(k * 11) % WORDS.length]}</a>`).join(' · ');
    const target = 20_000 + Math.floor(rnd() * 40_000);
    const related = [i * 2 + 1, i * 2 + 2, ...Array.from({ length: 6 }, () => Math.floor(rnd() * pages))].filter((n) => n < pages);
    let article = `<h1>${sentence(5)}</h1><p class="lead">${sentence(24)}</p>`;
    while (article.length < target - 9_000) {
      const kind = rnd();
      if (kind < 0.6) article += `<p>${Array.from({ length: 4 + Math.floor(rnd() * 4) }, () => sentence(10 + Math.floor(rnd() * 12))).join(' ')}</p>`;
      else if (kind < 0.75) article += `<h2>${sentence(4)}</h2><ul>${Array.from({ length: 5 }, () => `<li>${sentence(8)}</li>`).join('')}</ul>`;
      else if (kind < 0.9)
        article += `<table><thead><tr><th>Name</th><th>Height</th><th>Range</th></tr></thead><tbody>${Array.from({ length: 6 }, () => `<tr><td>${word()}</td><td>${Math.floor(rnd() * 100)}</td><td>${Math.floor(rnd() * 30)} nm</td></tr>`).join('')}</tbody></table>`;
      else article += `<pre><code>const ${word()} = ${Math.floor(rnd() * 1000)};\nfunction ${word()}() { return ${word()}; }</code></pre>`;
    }
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${sentence(6)}</title>
<meta name="description" content="${sentence(16)}"><link rel="stylesheet" href="/site.css"><script src="/analytics.js"></script></head>
<body><header><a href="/" class="logo">Lighthouse Docs</a><nav><ul>${nav}</ul></nav></header>
<div class="layout"><aside><h3>In this section</h3><ul>${related.map((r) => `<li><a href="${pathOf(r)}">${sentence(3)}</a></li>`).join('')}</ul></aside>
<main><article>${article}</article><section class="related"><h2>Related</h2>${related.map((r) => `<a href="${pathOf(r)}">${sentence(4)}</a>`).join(' ')}</section></main></div>
<footer><p>${footer}</p><p>Copyright 2026 Lighthouse Docs. All rights reserved.</p></footer></body></html>`;
  };
  const sample = Array.from({ length: Math.min(pages, 50) }, (_, k) => pageHtml(k).length);
  const server = await startFixtureServer(
    {
      '/*': (_req, res, url) => {
        const i = indexOf(url.pathname);
        if (i === null) html(res, '<h1>Not found</h1>', 404);
        else html(res, pageHtml(i));
      },
    },
    host,
    // Node's own default, as a web server would keep connections for its crawlers.
    { keepAliveTimeoutMs: 5_000 },
  );
  return { server, url: server.url, pages, meanBytes: Math.round(sample.reduce((a, b) => a + b, 0) / sample.length), close: () => server.close() };
}
