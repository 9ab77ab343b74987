/** One line of a diff, in parse-diff's shape (what Firecrawl's `diff.json` holds). */
export type DiffChange =
  | { type: 'normal'; normal: true; ln1: number; ln2: number; content: string }
  | { type: 'add'; add: true; ln: number; content: string }
  | { type: 'del'; del: true; ln: number; content: string };

export interface DiffChunk {
  /** The hunk header, `@@ -a,b +c,d @@`. */
  content: string;
  changes: DiffChange[];
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

export interface DiffFile {
  from: string;
  to: string;
  chunks: DiffChunk[];
  additions: number;
  deletions: number;
}

/** Lines of context around each change, as `git diff` shows. */
const CONTEXT = 3;
/**
 * Most cells of the longest-common-subsequence table (lines × lines, after the common head and
 * tail are set aside): bounds time and memory on pages that changed everywhere, which then diff
 * as one replaced block.
 */
const MAX_TABLE_CELLS = 4_000_000;

type Op = { kind: 'same' | 'del' | 'add'; line: string };

/** Line operations turning `a` into `b`: a longest common subsequence between shared head and tail. */
function lineOps(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const middle: Op[] = [];
  if ((x.length + 1) * (y.length + 1) > MAX_TABLE_CELLS) {
    middle.push(...x.map((line) => ({ kind: 'del' as const, line })), ...y.map((line) => ({ kind: 'add' as const, line })));
  } else {
    // lcs[i][j]: length of the LCS of x[i..] and y[j..], row-major in one array.
    const w = y.length + 1;
    const lcs = new Uint32Array((x.length + 1) * w);
    for (let i = x.length - 1; i >= 0; i--) {
      for (let j = y.length - 1; j >= 0; j--) {
        lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < x.length && j < y.length) {
      if (x[i] === y[j]) {
        middle.push({ kind: 'same', line: x[i]! });
        i++;
        j++;
      } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) middle.push({ kind: 'del', line: x[i++]! });
      else middle.push({ kind: 'add', line: y[j++]! });
    }
    while (i < x.length) middle.push({ kind: 'del', line: x[i++]! });
    while (j < y.length) middle.push({ kind: 'add', line: y[j++]! });
  }
  const same = (line: string): Op => ({ kind: 'same', line });
  return [...a.slice(0, head).map(same), ...middle, ...a.slice(a.length - tail).map(same)];
}

/** The diff between two texts as one file of hunks with three lines of context. */
export function diffLines(before: string, after: string, names = { from: 'previous', to: 'current' }): DiffFile {
  const ops = lineOps(before === '' ? [] : before.split('\n'), after === '' ? [] : after.split('\n'));
  const changed = ops.map((op, k) => (op.kind === 'same' ? -1 : k)).filter((k) => k >= 0);
  const chunks: DiffChunk[] = [];
  let additions = 0;
  let deletions = 0;
  // Group changes whose contexts touch into one hunk.
  let k = 0;
  while (k < changed.length) {
    let last = k;
    while (last + 1 < changed.length && changed[last + 1]! - changed[last]! <= 2 * CONTEXT) last++;
    const from = Math.max(0, changed[k]! - CONTEXT);
    const to = Math.min(ops.length - 1, changed[last]! + CONTEXT);
    let ln1 = 1 + ops.slice(0, from).filter((o) => o.kind !== 'add').length;
    let ln2 = 1 + ops.slice(0, from).filter((o) => o.kind !== 'del').length;
    const oldStart = ln1;
    const newStart = ln2;
    const changes: DiffChange[] = [];
    for (const op of ops.slice(from, to + 1)) {
      if (op.kind === 'same') changes.push({ type: 'normal', normal: true, ln1: ln1++, ln2: ln2++, content: ` ${op.line}` });
      else if (op.kind === 'del') {
        changes.push({ type: 'del', del: true, ln: ln1++, content: `-${op.line}` });
        deletions++;
      } else {
        changes.push({ type: 'add', add: true, ln: ln2++, content: `+${op.line}` });
        additions++;
      }
    }
    const oldLines = ln1 - oldStart;
    const newLines = ln2 - newStart;
    // As git writes it: an empty side starts at the line before.
    const header = `@@ -${oldLines ? oldStart : oldStart - 1},${oldLines} +${newLines ? newStart : newStart - 1},${newLines} @@`;
    chunks.push({ content: header, changes, oldStart, oldLines, newStart, newLines });
    k = last + 1;
  }
  return { from: names.from, to: names.to, chunks, additions, deletions };
}

/** The file as `git diff` prints it (empty when nothing changed). */
export function unifiedDiffText(file: DiffFile): string {
  if (file.chunks.length === 0) return '';
  const lines = [`diff --git a/${file.from} b/${file.to}`, `--- a/${file.from}`, `+++ b/${file.to}`];
  for (const chunk of file.chunks) lines.push(chunk.content, ...chunk.changes.map((c) => c.content));
  return `${lines.join('\n')}\n`;
}
