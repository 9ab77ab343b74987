import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from '../helpers/api';
import { startWcxbSite, type WcxbSite } from '../helpers/wcxb-site';

/** Clients a batch job of a user runs at once. */
const CLIENTS = 8;

let site: WcxbSite;
beforeAll(async () => {
  site = await startWcxbSite(inject('siteHosts')[0]!);
});
afterAll(() => site?.close());

describe('a batch of real pages from several clients at once', () => {
  it(`scrapes all 280 WCXB pages through /v1/scrape from ${CLIENTS} clients on default settings: none refused, none failed`, async () => {
    const queue = [...site.pages];
    const answers: { id: string; status: number; code?: string; markdown: number }[] = [];
    const client = async () => {
      for (let page = queue.shift(); page; page = queue.shift()) {
        // As a batch job sends them: once each, no retry, the default timeout.
        const { status, body } = await api('/v1/scrape', { body: { url: site.urlOf(page), formats: ['markdown'] } });
        answers.push({ id: page.id, status, ...(body?.code && { code: body.code }), markdown: body?.data?.markdown?.length ?? -1 });
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));

    expect(answers).toHaveLength(280);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    // Each page came back as a document, fetched once; all but a few (pages a script builds,
    // empty over plain HTTP) with content.
    expect(answers.filter((a) => a.markdown < 0)).toEqual([]);
    expect(answers.filter((a) => a.markdown > 0).length).toBeGreaterThanOrEqual(270);
    expect([...site.hits.values()].every((n) => n === 1)).toBe(true);
  }, 900_000);
});
