import { readdirSync, readFileSync } from 'node:fs';

interface ProcessInfo {
  pid: number;
  ppid: number;
  comm: string;
  /** Resident set size, bytes. */
  rss: number;
}

const PAGE_SIZE = 4096;

function readProcess(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may itself contain spaces or parentheses.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    return { pid, ppid: Number(fields[1]), comm: stat.slice(stat.indexOf('(') + 1, close), rss: Number(fields[21]) * PAGE_SIZE };
  } catch {
    return null; // exited meanwhile
  }
}

function allProcesses(): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcess(Number(name)))
    .filter((p): p is ProcessInfo => p !== null);
}

/** `pid` and every process below it (Linux /proc). */
export function processTree(pid: number): ProcessInfo[] {
  const all = allProcesses();
  const tree = all.filter((p) => p.pid === pid);
  for (let i = 0; i < tree.length; i++) tree.push(...all.filter((p) => p.ppid === tree[i]!.pid));
  return tree;
}

/** The Chromium browser process a worker (or any process) launched directly, if one runs. */
export function chromiumChildOf(pid: number): number | undefined {
  return allProcesses().find((p) => p.ppid === pid && /chrom/i.test(p.comm))?.pid;
}

/** Proportional set size: shared pages split among the processes sharing them, bytes. */
function pss(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * Memory of a process and all its descendants, bytes: summed RSS (counts pages Chromium's
 * processes share once per process) and summed PSS (counts them once).
 */
export function treeMemory(pid: number): { rss: number; pss: number } {
  const tree = processTree(pid);
  return { rss: tree.reduce((sum, p) => sum + p.rss, 0), pss: tree.reduce((sum, p) => sum + pss(p.pid), 0) };
}
