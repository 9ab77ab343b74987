import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../src/config/paths';

/*
 * Every relative link and every #anchor in README.md and docs/*.md resolves: the file exists in
 * the repository, and the anchor is a heading of the file it points into, slugged as GitHub
 * slugs headings. Links to other sites are not fetched.
 */

/** The markdown with fenced code blocks blanked out, so their contents are neither headings nor links. */
function withoutCodeBlocks(markdown: string): string {
  let fence: string | null = null;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s*(```|~~~)/.exec(line)?.[1];
      if (fence) {
        if (marker === fence) fence = null;
        return '';
      }
      if (marker) {
        fence = marker;
        return '';
      }
      return line;
    })
    .join('\n');
}

/** A heading's text as GitHub renders it: code spans, emphasis, links and tags reduced to their words. */
function headingText(raw: string): string {
  return raw
    .replace(/\s+#+\s*$/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(\*|_)(.*?)\1/g, '$2');
}

/** GitHub's heading anchor (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file, with `-1`, `-2`, ... for headings that repeat, as GitHub numbers them. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of withoutCodeBlocks(markdown).matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const slug = githubSlug(headingText(match[1]!.trim()));
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Link targets of a markdown file, outside code blocks and code spans. */
function linksOf(markdown: string): string[] {
  const text = withoutCodeBlocks(markdown).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** Broken links of the given files (repository-relative paths), read through `read`. */
function brokenLinks(files: readonly string[], read: (file: string) => string | undefined): string[] {
  const broken: string[] = [];
  for (const file of files) {
    const markdown = read(file);
    if (markdown === undefined) throw new Error(`${file} cannot be read`);
    for (const link of linksOf(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: and the like
      const [target = '', anchor] = link.split('#', 2) as [string, string | undefined];
      const targetFile = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(target)));
      if (targetFile.startsWith('../')) {
        broken.push(`${file}: ${link} points outside the repository`);
        continue;
      }
      const content = read(targetFile);
      if (content === undefined && !existsSync(path.join(ROOT, targetFile))) {
        broken.push(`${file}: ${link}: no such file`);
        continue;
      }
      if (anchor === undefined) continue;
      if (content === undefined || !targetFile.endsWith('.md')) broken.push(`${file}: ${link}: an anchor into a file that is not markdown`);
      else if (!anchorsOf(content).has(anchor)) broken.push(`${file}: ${link}: no heading "${anchor}" in ${targetFile}`);
    }
  }
  return broken;
}

function readRepoFile(file: string): string | undefined {
  const full = path.join(ROOT, file);
  if (!existsSync(full)) return undefined;
  try {
    return readFileSync(full, 'utf8');
  } catch {
    return undefined; // a directory
  }
}

const DOCS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('links in the README and docs/', () => {
  it('reads every page of docs/', () => {
    expect(DOCS).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'docs/architecture.md', 'docs/operations.md']));
  });

  it('resolve: every relative link names a file, every anchor a heading', () => {
    expect(brokenLinks(DOCS, readRepoFile)).toEqual([]);
  });

  it('slug headings as GitHub does', () => {
    expect(githubSlug(headingText('Where v1 and v2 differ, and what `/v2` does'))).toBe('where-v1-and-v2-differ-and-what-v2-does');
    expect(githubSlug(headingText('Administration: the `wcs` CLI'))).toBe('administration-the-wcs-cli');
    expect(githubSlug(headingText('**Bold** and [a link](x.md) in 2026'))).toBe('bold-and-a-link-in-2026');
    expect([...anchorsOf('# Title\n## Notes\n```\n# not a heading\n```\n## Notes\n')]).toEqual(['title', 'notes', 'notes-1']);
  });

  it('report a missing file, a missing anchor and a link out of the repository', () => {
    const pages: Record<string, string> = {
      'docs/a.md': '# A\n## Two words\n[ok](#two-words) [ok](b.md#b) [gone](c.md) [bad](#three) [bad](b.md#nope) [out](../../x.md) `[code](d.md)` [web](https://example.com)\n',
      'docs/b.md': '# B\n',
    };
    expect(brokenLinks(['docs/a.md'], (f) => pages[f])).toEqual([
      'docs/a.md: c.md: no such file',
      'docs/a.md: #three: no heading "three" in docs/a.md',
      'docs/a.md: b.md#nope: no heading "nope" in docs/b.md',
      'docs/a.md: ../../x.md points outside the repository',
    ]);
  });
});
