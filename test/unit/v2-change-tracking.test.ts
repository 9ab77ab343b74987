import { describe, expect, it } from 'vitest';
import { compareCopies } from '../../src/scrape/change-tracking/compare-copies';
import { diffLines, unifiedDiffText } from '../../src/scrape/change-tracking/line-diff';

describe('diffLines', () => {
  it('writes a git-style hunk with three lines of context around a change', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].join('\n');
    const after = ['a', 'b', 'c', 'd', 'E', 'f', 'g', 'h', 'i'].join('\n');
    const file = diffLines(before, after);
    expect(unifiedDiffText(file)).toBe(['diff --git a/previous b/current', '--- a/previous', '+++ b/current', '@@ -2,7 +2,7 @@', ' b', ' c', ' d', '-e', '+E', ' f', ' g', ' h', ''].join('\n'));
    expect(file).toMatchObject({ additions: 1, deletions: 1 });
    expect(file.chunks[0]!.changes.filter((c) => c.type !== 'normal')).toEqual([
      { type: 'del', del: true, ln: 5, content: '-e' },
      { type: 'add', add: true, ln: 5, content: '+E' },
    ]);
  });

  it('keeps distant changes in separate hunks and close ones in one', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const far = [...lines];
    far[2] = 'changed 3';
    far[25] = 'changed 26';
    expect(diffLines(lines.join('\n'), far.join('\n')).chunks.map((c) => c.content)).toEqual(['@@ -1,6 +1,6 @@', '@@ -23,7 +23,7 @@']);
    const near = [...lines];
    near[10] = 'changed 11';
    near[15] = 'changed 16';
    expect(diffLines(lines.join('\n'), near.join('\n')).chunks.map((c) => c.content)).toEqual(['@@ -8,12 +8,12 @@']);
  });

  it('diffs insertions and deletions against empty sides, and nothing for equal texts', () => {
    expect(unifiedDiffText(diffLines('same\ntext', 'same\ntext'))).toBe('');
    expect(diffLines('', 'new\nlines').chunks.map((c) => c.content)).toEqual(['@@ -0,0 +1,2 @@']);
    expect(diffLines('old', '').chunks.map((c) => c.content)).toEqual(['@@ -1,1 +0,0 @@']);
    const inserted = diffLines('a\nc', 'a\nb\nc');
    expect(inserted.chunks[0]!.changes.map((c) => c.content)).toEqual([' a', '+b', ' c']);
  });

  it('stays bounded on texts that differ everywhere: one replaced block', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, i) => `new ${i}`).join('\n');
    const file = diffLines(before, after);
    expect(file).toMatchObject({ additions: 3000, deletions: 3000 });
  });
});

describe('compareCopies', () => {
  const copy = (markdown: string, statusCode = 200, json: unknown = null) => ({ markdown, statusCode, json });
  const at = new Date('2026-11-20T12:00:00Z');

  it('is new without a previous copy, same or changed by the markdown, removed when the page is now gone', () => {
    expect(compareCopies(copy('x'), undefined, ['git-diff'])).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
    expect(compareCopies(copy('x'), { ...copy('x'), scrapedAt: at }, ['git-diff'])).toEqual({ previousScrapeAt: at.toISOString(), changeStatus: 'same', visibility: 'visible' });
    const changed = compareCopies(copy('y'), { ...copy('x'), scrapedAt: at }, ['git-diff']);
    expect(changed).toMatchObject({ changeStatus: 'changed', diff: { text: expect.stringContaining('-x\n+y') } });
    expect(compareCopies(copy('Not found', 404), { ...copy('x'), scrapedAt: at }, [])).toMatchObject({ changeStatus: 'removed' });
  });

  it('lists the top-level fields whose values differ in json mode, whatever the key order', () => {
    const result = compareCopies(copy('y', 200, { price: 12, name: 'A', tags: { b: 1, a: 2 } }), { ...copy('x', 200, { name: 'A', price: 10, tags: { a: 2, b: 1 }, gone: true }), scrapedAt: at }, ['json']);
    expect(result.json).toEqual({ price: { previous: 10, current: 12 }, gone: { previous: true, current: null } });
    expect(result.diff).toBeUndefined();
  });
});
