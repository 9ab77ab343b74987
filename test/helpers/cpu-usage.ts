import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on every Linux we run on). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system, all threads) a /proc stat file reports; 0 once it is gone. */
function statCpuSeconds(statPath: string): number {
  try {
    const stat = readFileSync(statPath, 'utf8');
    // comm is in parentheses and may itself contain spaces; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds a process (all its threads) has used so far. */
export function processCpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/** CPU seconds each live thread of a process has used so far, by thread id. */
export function threadCpuSeconds(pid: number | 'self'): Map<number, number> {
  const task = `/proc/${pid}/task`;
  return new Map(readdirSync(task).map((tid) => [Number(tid), statCpuSeconds(`${task}/${tid}/stat`)]));
}

/** CPU seconds `read` grows by over the next `ms`. */
export async function cpuOver(read: () => number, ms: number): Promise<number> {
  const before = read();
  await sleep(ms);
  return read() - before;
}
