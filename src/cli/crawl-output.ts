import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Where a page's markdown goes under `dir`: `<host>/<path>.md`, `index.md` for a directory,
 * with a short hash of the query when there is one, and nothing that can climb out of `dir`.
 */
export function markdownPath(dir: string, pageUrl: string): string {
  const url = new URL(pageUrl);
  const segments = url.pathname
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s).replace(/[^\w.-]+/g, '_').replace(/^\.+/, '_'));
  if (url.pathname.endsWith('/') || segments.length === 0) segments.push('index');
  const query = url.search ? `_${createHash('sha256').update(url.search).digest('hex').slice(0, 8)}` : '';
  const last = segments.pop()!.replace(/\.(html?|php|aspx?)$/i, '');
  return path.join(dir, url.host.replace(/[^\w.-]+/g, '_'), ...segments, `${last}${query}.md`);
}

/** Writes each page as markdown (with its source URL on top) and the graph as graph.dot. */
export function writeCrawlOutput(dir: string, pages: { url: string; markdown: string }[], dot: string): string[] {
  const written: string[] = [];
  for (const page of pages) {
    const file = markdownPath(dir, page.url);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `<!-- ${page.url} -->\n\n${page.markdown}\n`);
    written.push(file);
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'graph.dot'), dot);
  return written;
}
