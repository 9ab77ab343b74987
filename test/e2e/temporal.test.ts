import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, fixture } from '../helpers/api';
import { activitiesOf } from '../helpers/workflow-history';

/** Every scrape is a workflow `scrape-<scrapeId>` on the dev server, findable in its UI. */
let connection: Connection;
let client: Client;

beforeAll(async () => {
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection });
});
afterAll(() => connection?.close());

/**
 * A scrape's id once its workflow has closed: the API may answer a scrape its own worker ran as
 * soon as the page is stored, a few milliseconds before the workflow's completion is recorded.
 */
async function scrapeId(body: Record<string, unknown>): Promise<string> {
  const { status, body: answer } = await api('/v1/scrape', { body });
  expect(status).toBe(200);
  const id: string = answer.data.metadata.scrapeId;
  await client.workflow.getHandle(`scrape-${id}`).result();
  return id;
}



describe('Temporal', () => {
  it('runs each scrape as a completed workflow scrape-<scrapeId> on the scrape task queue', async () => {
    const ids = await Promise.all([
      scrapeId({ url: fixture('/article') }),
      scrapeId({ url: fixture('/data.json') }),
      scrapeId({ url: fixture('/gone') }),
      scrapeId({ url: fixture('/article'), engine: 'browser' }),
    ]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      const handle = client.workflow.getHandle(`scrape-${id}`);
      // Answered once its page was stored, the workflow closes a moment later.
      await handle.result();
      const description = await handle.describe();
      expect({ id, type: description.type, status: description.status.name, taskQueue: description.taskQueue }).toEqual({
        id,
        type: 'scrapeWorkflow',
        status: 'COMPLETED',
        taskQueue: `${inject('queuePrefix')}-scrape`,
      });
    }
  });

  it('fetches over plain HTTP as a local activity of the worker that runs the scrape, and renders on the browser queue', async () => {
    const prefix = inject('queuePrefix');
    const http = await scrapeId({ url: fixture('/article') });
    expect(await activitiesOf(client, `scrape-${http}`)).toEqual([{ type: 'scrapePageHttp', queue: 'local' }]);
    const shell = await scrapeId({ url: fixture('/js-app') });
    expect(await activitiesOf(client, `scrape-${shell}`)).toEqual([
      { type: 'scrapePageHttp', queue: 'local' },
      { type: 'scrapePageBrowser', queue: `${prefix}-browser` },
    ]);
  });
});
