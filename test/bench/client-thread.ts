/**
 * One thread of closed-loop scrape clients (client-threads.ts): waits for the common start,
 * runs its clients and returns their answers, each `at` on the process-wide clock.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { apiScrape, closedLoop, type Answer } from './closed-loop';
import type { ClientThreadResult, ClientThreadTask } from './client-threads';

export default async function runClients(task: ClientThreadTask & { startAt: number; offset: number }): Promise<ClientThreadResult> {
  await sleep(Math.max(0, task.startAt - Date.now()));
  // The thread's clients take the pages in turn, each thread from its own place in the list.
  let next = task.offset;
  const call = () => apiScrape(task.apiUrl, task.key, task.urls[next++ % task.urls.length]!, task.options);
  const answers: Answer[] =
    task.seconds > 0 ? (await closedLoop(task.clients, task.seconds, call, task.ignoreRetryAfter)).answers : await Promise.all(Array.from({ length: task.clients }, call));
  return { answers: answers.map((a) => ({ ...a, at: performance.timeOrigin + a.at })) };
}
