import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { api, fixture } from '../helpers/api';
import { waitForCrawl } from '../helpers/crawl';

const WORKFLOWS = path.join(__dirname, '..', '..', 'workflows', 'index.ts');
const HISTORIES = path.join(__dirname, '..', 'fixtures', 'histories');

/**
 * Workflow code must replay the histories of runs it started before a deploy; a change that
 * breaks determinism fails here instead of in running crawls.
 */
describe('workflow determinism', () => {
  it('replays the recorded crawl histories without nondeterminism errors', async () => {
    const files = readdirSync(HISTORIES).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const history = historyFromJSON(JSON.parse(readFileSync(path.join(HISTORIES, file), 'utf8')));
      await Worker.runReplayHistory({ workflowsPath: WORKFLOWS }, history, file);
    }
  });

  it('replays fresh scrape, map, crawl and search runs of the current code', async () => {
    const scrape = await api('/v1/scrape', { body: { url: fixture('/article') } });
    const map = await api('/v1/map', { body: { url: fixture('/article'), ignoreSitemap: true } });
    const crawl = await api('/v1/crawl', { body: { url: fixture('/redirect/1'), maxDepth: 1, ignoreSitemap: true } });
    // A search that scrapes its results: provider activity, parallel page scrapes, the deadline timer, ranking.
    const search = await api('/v1/search', { body: { query: 'article', limit: 2, scrapeOptions: { formats: ['markdown'] } } });
    expect([scrape.status, map.status, crawl.status, search.status]).toEqual([200, 200, 200, 200]);
    await waitForCrawl(crawl.body.id);
    const client = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
    try {
      const ids = [`scrape-${scrape.body.data.metadata.scrapeId}`, `crawl-${crawl.body.id}`, `search-${search.body.id}`];
      const histories = (async function* () {
        for (const workflowId of ids) yield { workflowId, history: await client.workflow.getHandle(workflowId).fetchHistory() };
      })();
      const replayed: string[] = [];
      for await (const result of Worker.runReplayHistories({ workflowsPath: WORKFLOWS }, histories)) {
        expect(result.error, `${result.workflowId}: ${result.error?.message}`).toBeUndefined();
        replayed.push(result.workflowId);
      }
      expect(replayed).toEqual(ids);
    } finally {
      await client.connection.close();
    }
  });
});
