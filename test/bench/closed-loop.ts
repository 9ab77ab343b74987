import { setTimeout as sleep } from 'node:timers/promises';

/** One call's outcome: HTTP status (0: no answer), when it began and how long it took, and the `Retry-After` it was told. */
export interface Answer {
  status: number;
  /** performance.now() at the call's start. */
  at: number;
  ms: number;
  retryAfter: number;
}

/**
 * `clients` clients each calling `call` one after another for `seconds`; a client told to
 * retry later waits `Retry-After` first, as a well-behaved client does, unless
 * `ignoreRetryAfter` (a flood). Returns every answer and the seconds until the last came back
 * (past `seconds` by the calls then in flight).
 */
export async function closedLoop(clients: number, seconds: number, call: () => Promise<Answer>, ignoreRetryAfter = false): Promise<{ answers: Answer[]; seconds: number }> {
  const answers: Answer[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const answer = await call();
      answers.push(answer);
      if (answer.retryAfter > 0 && !ignoreRetryAfter) await sleep(answer.retryAfter * 1000);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return { answers, seconds: (performance.now() - started) / 1000 };
}

/** POST /v1/scrape of `url` with `key`, the answer's body read and dropped. */
export async function apiScrape(apiUrl: string, key: string, url: string, options: Record<string, unknown> = {}): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(`${apiUrl}/v1/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      // A generous timeout: this measures latency, and a loaded machine must not turn it into 408s.
      body: JSON.stringify({ url, timeout: 60_000, ...options }),
    });
    await response.arrayBuffer();
    return { status: response.status, at: started, ms: performance.now() - started, retryAfter: Number(response.headers.get('retry-after') ?? 0) };
  } catch {
    return { status: 0, at: started, ms: performance.now() - started, retryAfter: 0 };
  }
}

/** Answers counted the way the scrape figures need them. */
export function countAnswers(answers: Answer[]): { ok: number[]; refused: number[]; serverErrors: number; other: number } {
  const ok = answers.filter((a) => a.status === 200).map((a) => a.ms);
  const refused = answers.filter((a) => a.status === 503 || a.status === 429).map((a) => a.ms);
  const serverErrors = answers.filter((a) => a.status >= 500 && a.status !== 503).length;
  return { ok, refused, serverErrors, other: answers.length - ok.length - refused.length - serverErrors };
}
