import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs, ledger, pages, teams } from '../../src/db/schema';
import { createJob } from '../../src/jobs/job-store';
import { storeFailedPage, storeScrapedPage } from '../../src/jobs/page-store';
import { processPlain } from '../../src/scrape/process/process-plain';
import { createTeamWithKey } from '../helpers/accounts';
import { testDatabase } from '../helpers/db';

/** What Postgres keeps of a single-page job, as the scrape activities write it. */
describe('a single-page job in Postgres', () => {
  async function singlePageJob(name: string, credits: number) {
    const { db } = testDatabase();
    const { teamId } = await createTeamWithKey(db, name, credits);
    const jobId = randomUUID();
    const url = `https://example.com/${name}`;
    await createJob(db, { id: jobId, teamId, kind: 'scrape', url, options: {}, ttlHours: 1 });
    const ref = { jobId, teamId, url, urlKey: url, depth: 0, pageId: jobId };
    const page = (text: string) => ({ finalUrl: url, statusCode: 200, contentType: 'text/plain', renderer: 'http' as const, content: processPlain(text, 'text'), timing: {} });
    const state = async () => ({
      job: (await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, jobId)))[0]?.status,
      pages: await db.select({ id: pages.id, text: pages.text, credits: pages.credits }).from(pages).where(eq(pages.jobId, jobId)),
      ledger: await db.select({ amount: ledger.amount }).from(ledger).where(eq(ledger.jobId, jobId)),
      balance: (await db.select({ credits: teams.credits }).from(teams).where(eq(teams.id, teamId)))[0]?.credits,
    });
    return { db, jobId, ref, page, state };
  }

  it('stores the page, its charge and the job completed; a retry of the same page keeps the first and charges nothing more', async () => {
    const { db, jobId, ref, page, state } = await singlePageJob('stored-twice', 10);
    const price = { amount: 2, operation: 'scrape', idempotencyKey: `scrape:${jobId}` };
    const options = { keepRawHtml: false, searchable: false, finishJob: true, variant: 'default' };
    const first = await storeScrapedPage(db, ref, page('First attempt.'), price, options);
    expect(first).toEqual({ pageId: jobId, statusCode: 200, credits: 2 });
    expect(await state()).toEqual({ job: 'completed', pages: [{ id: jobId, text: 'First attempt.', credits: 2 }], ledger: [{ amount: -2 }], balance: 8 });

    const again = await storeScrapedPage(db, ref, page('Second attempt.'), price, options);
    expect(again).toEqual({ pageId: jobId, statusCode: 200, credits: 2 });
    expect(await state()).toEqual({ job: 'completed', pages: [{ id: jobId, text: 'First attempt.', credits: 2 }], ledger: [{ amount: -2 }], balance: 8 });
  });

  it('answers the row as it stored it, with the formats the page lacks as NULL (not JSON null), for the next request to see as missing', async () => {
    const { db, jobId, ref, page } = await singlePageJob('row-back', 10);
    const stored = await storeScrapedPage(db, ref, page('Low water at 12:30.'), { amount: 1, operation: 'scrape', idempotencyKey: `scrape:${jobId}` }, {
      keepRawHtml: false,
      searchable: true,
      finishJob: true,
      variant: 'default',
      returnRow: true,
    });
    const { searchVector: _notRead, ...row } = (await db.select().from(pages).where(eq(pages.id, jobId)))[0]!;
    expect(stored.row).toEqual(row);
    expect(row).toMatchObject({ text: 'Low water at 12:30.', rawHtml: null, screenshot: null, actions: null, branding: null, llmFormats: null, attempts: 1 });
    const [nulls] = await db.execute<Record<string, boolean>>(
      sql`select screenshot is null as screenshot, actions is null as actions, branding is null as branding, llm_formats is null as llm, links is not null as links from ${pages} where id = ${jobId}`,
    );
    expect(nulls).toEqual({ screenshot: true, actions: true, branding: true, llm: true, links: true });
  });

  it('stores an uncharged page with no ledger row, and leaves the job to its caller when told to', async () => {
    const { db, jobId, ref, page, state } = await singlePageJob('uncharged', 10);
    await storeScrapedPage(db, ref, page('Charged later, with its extraction.'), { amount: 0, operation: 'scrape', idempotencyKey: `scrape:${jobId}` }, {
      keepRawHtml: false,
      searchable: false,
      finishJob: false,
      variant: 'default',
    });
    expect(await state()).toEqual({ job: 'scraping', pages: [{ id: jobId, text: 'Charged later, with its extraction.', credits: 0 }], ledger: [], balance: 10 });
  });

  it('stays completed with its page and one charge when a failure is recorded after the page was stored', async () => {
    // The case: a worker stored the page (and the API may have answered it), then died before
    // its workflow learnt so; the workflow's retries ran out and it records the page as failed.
    const { db } = testDatabase();
    const { teamId } = await createTeamWithKey(db, 'late-failure', 10);
    const jobId = randomUUID();
    const url = 'https://example.com/tides';
    await createJob(db, { id: jobId, teamId, kind: 'scrape', url, options: {}, ttlHours: 1 });
    const ref = { jobId, teamId, url, urlKey: url, depth: 0, pageId: jobId };
    const page = { finalUrl: url, statusCode: 200, contentType: 'text/plain', renderer: 'http' as const, content: processPlain('High water at 06:12.', 'text'), timing: {} };
    await storeScrapedPage(db, ref, page, { amount: 1, operation: 'scrape', idempotencyKey: `scrape:${jobId}` }, { keepRawHtml: false, searchable: false, finishJob: true, variant: 'default' });
    await storeFailedPage(db, ref, { code: 'SCRAPE_TIMEOUT', message: 'The page did not finish within its timeout', attempts: 3 }, true);

    const [job] = await db.select({ status: jobs.status, errorCode: jobs.errorCode }).from(jobs).where(eq(jobs.id, jobId));
    expect(job).toEqual({ status: 'completed', errorCode: null });
    const [stored] = await db.select({ status: pages.status, text: pages.text }).from(pages).where(eq(pages.id, jobId));
    expect(stored).toEqual({ status: 'scraped', text: 'High water at 06:12.' });
    expect(await db.select({ amount: ledger.amount }).from(ledger).where(eq(ledger.idempotencyKey, `scrape:${jobId}`))).toEqual([{ amount: -1 }]);
  });
});
