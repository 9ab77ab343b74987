/**
 * One thread of closed-loop scrape clients (client-threads.ts): waits for the common start,
 * runs its clients and returns their answers, each `at` on the process-wide clock, with its
 * event loop's stalls.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { LIMIT_WINDOW_MS } from '../../src/limits/loop-delay-limit';
import { LoopStallTimer } from '../../src/limits/loop-stall-timer';
import { apiScrape, closedLoop, type Answer } from './closed-loop';
import type { ClientThreadResult, ClientThreadTask } from './client-threads';

export default async function runClients(task: ClientThreadTask & { startAt: number }): Promise<ClientThreadResult> {
  await sleep(Math.max(0, task.startAt - Date.now()));
  const windows: number[] = [];
  const stalls = new LoopStallTimer(LIMIT_WINDOW_MS, (ms) => windows.push(ms));
  const call = () => apiScrape(task.apiUrl, task.key, task.url, task.options);
  const answers: Answer[] =
    task.seconds > 0 ? (await closedLoop(task.clients, task.seconds, call)).answers : await Promise.all(Array.from({ length: task.clients }, call));
  stalls.stop();
  return { answers: answers.map((a) => ({ ...a, at: performance.timeOrigin + a.at })), windows };
}
