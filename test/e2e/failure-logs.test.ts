import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, inject, it } from 'vitest';
import { api, fixture } from '../helpers/api';

type LogLine = Record<string, unknown> & { msg?: string; error?: { code?: string; message?: string; stack?: string } };

/**
 * The shared stack's JSON log lines whose error message mentions `text`, from the processes
 * that run scrapes: the API's own scrape worker (an eager start) or a worker process.
 */
function scrapeLogLinesAbout(text: string): LogLine[] {
  return ['api.log', 'worker.log']
    .flatMap((file) => readFileSync(path.join(inject('logDir'), file), 'utf8').split('\n'))
    .filter((line) => line.startsWith('{') && line.includes(text))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.error?.message?.includes(text));
}

it("a failed activity's log line carries its code, message and the stack where it was thrown; the workflow's its message and stack", async () => {
  // A redirect to a private address this run alone uses: the activity fails with URL_BLOCKED at the hop.
  const host = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const message = `${host} is not a public address; only public http(s) URLs can be fetched`;
  const { status, body } = await api('/v1/scrape', { body: { url: fixture(`/redirect-to?target=${encodeURIComponent(`http://${host}/`)}`) } });
  expect({ status, code: body.code, error: body.error }).toEqual({ status: 403, code: 'URL_BLOCKED', error: message });

  // Temporal's logger buffers its lines briefly before they reach the file.
  await expect.poll(() => scrapeLogLinesAbout(host).map((line) => line.msg), { timeout: 10_000 }).toEqual(['Activity failed', 'Workflow failed']);
  const [activity, workflow] = scrapeLogLinesAbout(host);

  expect(activity).toMatchObject({ level: 40, activityType: 'scrapePageHttp', error: { code: 'URL_BLOCKED', message } });
  // The AppError's own stack: its header, then frames in our code, not only Temporal's wrapper.
  expect(activity?.error?.stack).toMatch(new RegExp(`^AppError: ${message.replace(/[.()]/g, '\\$&')}\\n\\s+at .*/src/`));

  expect(workflow).toMatchObject({ workflowId: activity?.workflowId, error: { message } });
  expect(workflow?.error?.stack).toMatch(/\n\s+at .*\/workflows\/scrape\.ts/);
});
