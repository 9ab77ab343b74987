import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { html, startFixtureServer, type FixtureServer } from '../fixtures/fixture-server';
import { createTeamWithKey } from '../helpers/accounts';
import { api } from '../helpers/api';
import { waitForCrawl } from '../helpers/crawl';
import { testDatabase } from '../helpers/db';
import { wcs } from '../helpers/wcs-cli';

/** Pages each section links to from its index; a crawl of a section takes them all. */
const PAGES = 6;
/** How long the site takes per page, so that pages fetched at once overlap. */
const PAGE_MS = 300;

/** Which team's crawls fetch each section, and the most requests the site saw at once per team. */
const teamOfSection: Record<string, string> = { a: 'limited', b: 'limited', c: 'unlimited', d: 'unlimited' };
const current = new Map<string, number>();
const most = new Map<string, number>();

let site: FixtureServer;

beforeAll(async () => {
  site = await startFixtureServer(
    {
      '/s/*': async (_req, res, url) => {
        const [, , section, page] = url.pathname.split('/');
        const team = teamOfSection[section!]!;
        current.set(team, (current.get(team) ?? 0) + 1);
        most.set(team, Math.max(most.get(team) ?? 0, current.get(team)!));
        await sleep(PAGE_MS);
        current.set(team, current.get(team)! - 1);
        const links = page ? '' : Array.from({ length: PAGES }, (_, i) => `<a href="/s/${section}/${i + 1}">page ${i + 1}</a>`).join(' ');
        html(res, `<html><head><title>${section} ${page || 'index'}</title></head><body><main><h1>Section ${section}</h1><p>Page ${page || 'index'} of section ${section}.</p>${links}</main></body></html>`);
      },
    },
    inject('siteHosts')[0]!,
  );
});
afterAll(async () => {
  await site?.close();
});

async function startCrawl(key: string, section: string): Promise<string> {
  const { status, body } = await api('/v1/crawl', { key, body: { url: `${site.url}/s/${section}`, limit: PAGES + 1, maxConcurrency: 5 } });
  expect(status).toBe(200);
  return body.id;
}

describe('fairness between teams', () => {
  it('keeps a team to its pages in flight across its crawls: they wait their turn and complete, while another team runs at full width', async () => {
    const db = testDatabase().db;
    const limitedTeam = `fair-limited-${process.pid}`;
    const limited = await createTeamWithKey(db, limitedTeam, 1_000);
    const unlimited = await createTeamWithKey(db, `fair-unlimited-${process.pid}`, 1_000);
    expect(await wcs('limits', 'set', '--team', limitedTeam, '--pages-in-flight', '1')).toMatchObject({ code: 0, stderr: '' });

    const crawls = await Promise.all([
      startCrawl(limited.key, 'a'),
      startCrawl(limited.key, 'b'),
      startCrawl(unlimited.key, 'c'),
      startCrawl(unlimited.key, 'd'),
    ]);
    const ends = await Promise.all(crawls.map((id, i) => waitForCrawl(id, { key: i < 2 ? limited.key : unlimited.key, timeoutMs: 80_000 })));

    // Over its limit a crawl waits, it does not fail: every page of every crawl is there.
    for (const [i, end] of ends.entries()) {
      expect(end).toMatchObject({ status: 'completed', completed: PAGES + 1, total: PAGES + 1 });
      expect(new Set(end.data.map((d: { metadata: { sourceURL: string } }) => new URL(d.metadata.sourceURL).pathname)).size).toBe(PAGES + 1);
      expect(end.data.every((d: { metadata: { statusCode: number } }) => d.metadata.statusCode === 200), `crawl ${'abcd'[i]}`).toBe(true);
    }
    // The site saw one request at a time from the limited team's two crawls together, and more
    // than that from the other team's.
    expect(most.get('limited')).toBe(1);
    expect(most.get('unlimited')).toBeGreaterThan(1);
  });
});
