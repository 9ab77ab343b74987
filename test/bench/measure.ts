import { readdirSync, readFileSync } from 'node:fs';
import type { Environment } from '../helpers/environment';

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

/** Samples a process's RSS every `everyMs` until stopped; keeps the peak and the series. */
export function sampleRss(pid: number, everyMs = 500): { stop(): { peakMb: number; samples: number[] } } {
  const samples: number[] = [];
  const timer = setInterval(() => {
    try {
      samples.push(rssMb(pid));
    } catch {
      // the process is gone
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { peakMb: Math.max(0, ...samples), samples };
    },
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Prints rows as an aligned text table (and returns it, for the README). */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const out = [line(cells[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
  console.log(out);
  return out;
}

/** CPU model and core count, for the report. */
export function machine(): string {
  const cpu = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown CPU';
  const cores = readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? 0;
  return `${cores} x ${cpu}, Node ${process.version}`;
}

/** A process's command line, its arguments joined by spaces ('' once it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/**
 * CPU seconds (user + system) used so far, summed per group of processes, from /proc (Linux).
 * A process's reaped children count too, so Postgres backends that exit (their time moves to
 * the postmaster) do not make a group's total go down.
 */
export function cpuSeconds(groups: Record<string, (pid: number, comm: string) => boolean>): Record<string, number> {
  const ticksPerSecond = 100;
  const totals: Record<string, number> = Object.fromEntries(Object.keys(groups).map((g) => [g, 0]));
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // comm is parenthesised and may hold spaces; the fields after it are space-separated.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / ticksPerSecond;
    for (const [group, matches] of Object.entries(groups)) {
      if (matches(pid, comm)) {
        totals[group]! += seconds;
        break;
      }
    }
  }
  return totals;
}

/**
 * The processes of a bench environment whose CPU time the benches report: the worker, Postgres,
 * this environment's Temporal dev server, the API, and the bench process itself (which serves
 * the pages and runs the clients). On the cluster: all of its workers, its Temporal server and
 * both API replicas.
 */
export function stackCpuGroups(env: Environment): Record<string, (pid: number, comm: string) => boolean> {
  if (env.cluster) {
    const { apis, httpWorkers, browserWorkers, temporal } = env.cluster;
    const pids = (services: { pid: number | undefined }[]) => new Set(services.map((s) => s.pid));
    const [workers, replicas] = [pids([...httpWorkers, ...browserWorkers]), pids(apis)];
    return {
      workers: (pid) => workers.has(pid),
      postgres: (_, comm) => comm === 'postgres',
      temporal: (pid) => pid === temporal.pid,
      'api replicas': (pid) => replicas.has(pid),
      'bench (site server, clients)': (pid) => pid === process.pid,
    };
  }
  const workerPid = env.stack.worker.child.pid!;
  const apiPid = env.stack.api.child.pid!;
  const temporalPort = new URL(`http://${env.temporal.address}`).port;
  return {
    worker: (pid) => pid === workerPid,
    postgres: (_, comm) => comm === 'postgres',
    // This environment's dev server only: other environments may run beside it.
    temporal: (pid, comm) => comm === 'temporal' && commandLine(pid).includes(`--port ${temporalPort} `),
    api: (pid) => pid === apiPid,
    'bench (site server, clients)': (pid) => pid === process.pid,
  };
}

/** CPU milliseconds per unit of work by process group, between two `cpuSeconds` readings. */
export function cpuMsPer(units: number, before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(before).map((g) => [g, ((after[g]! - before[g]!) * 1000) / Math.max(1, units)]));
}
