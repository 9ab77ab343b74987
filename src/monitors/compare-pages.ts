import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { and, asc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { monitorCheckPages, monitorSnapshots, pages } from '../db/schema';
import type { ChangeTrackingResult } from '../scrape/change-tracking/change-result';
import { compareCopies, type PageCopy } from '../scrape/change-tracking/compare-copies';
import type { CrawlTargetPlan, PageDiff, PageStatus, ScrapeTargetPlan } from './monitor-plan';
import { loadTarget, targetJobId } from './target-jobs';

/** Pages compared per transaction: a retry resumes after the last one committed. */
const CHUNK = 50;

type NewCheckPage = typeof monitorCheckPages.$inferInsert;

/** A page answering this is gone, as compareCopies reads it. */
const gone = (statusCode: number) => statusCode === 404 || statusCode === 410;

/** The check's verdict on one scraped page, from the changeTracking comparison of its two copies. */
export function verdictOf(plan: Pick<ScrapeTargetPlan | CrawlTargetPlan, 'diff'>, current: PageCopy, previous: (PageCopy & { scrapedAt: Date }) | undefined) {
  const modes = [...(plan.diff.text ? (['git-diff'] as const) : []), ...(plan.diff.json ? (['json'] as const) : [])];
  const compared: ChangeTrackingResult = compareCopies(current, previous, modes);
  if (!previous) return { status: (gone(current.statusCode) ? 'error' : 'new') as PageStatus };
  if (compared.changeStatus === 'removed') return { status: 'removed' as PageStatus };
  const fields = compared.json ?? {};
  const textChanged = compared.changeStatus === 'changed' && (plan.diff.text || !plan.diff.json);
  const jsonChanged = plan.diff.json && Object.keys(fields).length > 0;
  if (!textChanged && !jsonChanged) return { status: 'same' as PageStatus };
  // Markdown monitors: the diff text and its parsed form; JSON monitors: the fields (and the text too when both were asked for).
  const diff: PageDiff = plan.diff.json ? { ...(plan.diff.text && compared.diff && { text: compared.diff.text }), json: fields } : { text: compared.diff?.text ?? '', json: compared.diff?.json ?? { files: [] } };
  return { status: 'changed' as PageStatus, diff };
}

/**
 * Compares every page the target's job stored in this check with the monitor's snapshot of it,
 * records each page of the check and moves the snapshot on, a chunk per transaction; a retry
 * resumes where the committed chunks end. A complete crawl then reports the snapshots it did not
 * find again as `removed` and forgets them; a scrape target forgets URLs no longer in its list.
 */
export async function comparePages(db: Db, checkId: string, targetId: string, complete: boolean, heartbeat: () => void): Promise<void> {
  const { monitorId, plan } = await loadTarget(db, checkId, targetId);
  if (plan.type === 'search') throw new Error('comparePages compares pages of scrape and crawl targets');
  const jobId = targetJobId(checkId, targetId, 0);
  let after = '';
  for (;;) {
    heartbeat();
    const rows = await db
      .select({
        id: pages.id,
        urlKey: pages.urlKey,
        url: pages.url,
        status: pages.status,
        statusCode: pages.statusCode,
        errorCode: pages.errorCode,
        error: pages.error,
        markdown: pages.markdown,
        json: pages.json,
        title: pages.title,
      })
      .from(pages)
      .where(and(eq(pages.jobId, jobId), inArray(pages.status, ['scraped', 'failed']), gt(pages.urlKey, after)))
      .orderBy(asc(pages.urlKey))
      .limit(CHUNK);
    if (rows.length === 0) break;
    after = rows.at(-1)!.urlKey;
    const keys = rows.map((r) => r.urlKey);
    const done = new Set(
      (await db.select({ urlKey: monitorCheckPages.urlKey }).from(monitorCheckPages).where(and(eq(monitorCheckPages.checkId, checkId), eq(monitorCheckPages.targetId, targetId), inArray(monitorCheckPages.urlKey, keys)))).map((r) => r.urlKey),
    );
    const todo = rows.filter((r) => !done.has(r.urlKey));
    if (todo.length === 0) continue;
    const previous = new Map(
      (
        await db
          .select({ urlKey: monitorSnapshots.urlKey, pageId: pages.id, markdown: pages.markdown, statusCode: pages.statusCode, json: pages.json, scrapedAt: pages.scrapedAt })
          .from(monitorSnapshots)
          .innerJoin(pages, eq(pages.id, monitorSnapshots.pageId))
          .where(and(eq(monitorSnapshots.monitorId, monitorId), eq(monitorSnapshots.targetId, targetId), inArray(monitorSnapshots.urlKey, todo.map((r) => r.urlKey))))
      ).map((p) => [p.urlKey, p]),
    );
    const checkPages: NewCheckPage[] = [];
    const snapshots: (typeof monitorSnapshots.$inferInsert)[] = [];
    for (const row of todo) {
      const before = previous.get(row.urlKey);
      const base = { checkId, targetId, urlKey: row.urlKey, url: row.url, jobId, pageId: row.id, previousPageId: before?.pageId ?? null, statusCode: row.statusCode, metadata: { title: row.title } };
      if (row.status === 'failed') {
        checkPages.push({ ...base, status: 'error', error: row.error ?? row.errorCode ?? 'The page could not be scraped' });
        continue;
      }
      const current: PageCopy = { markdown: row.markdown ?? '', statusCode: row.statusCode ?? 0, json: row.json };
      const verdict = verdictOf(plan, current, before && { markdown: before.markdown ?? '', statusCode: before.statusCode ?? 0, json: before.json, scrapedAt: before.scrapedAt ?? new Date(0) });
      checkPages.push({
        ...base,
        status: verdict.status,
        ...('diff' in verdict && { diff: verdict.diff }),
        ...(verdict.status === 'error' && { error: `The page answered HTTP ${row.statusCode}` }),
        ...(plan.diff.json && { snapshot: { json: row.json ?? null } }),
      });
      if (verdict.status !== 'error') snapshots.push({ monitorId, targetId, urlKey: row.urlKey, url: row.url, pageId: row.id, checkId });
      // The line diff is bounded per page; between pages the worker's event loop gets its turn.
      await yieldToLoop();
    }
    await db.transaction(async (tx) => {
      await tx.insert(monitorCheckPages).values(checkPages).onConflictDoNothing();
      if (snapshots.length > 0) {
        await tx
          .insert(monitorSnapshots)
          .values(snapshots)
          .onConflictDoUpdate({
            target: [monitorSnapshots.monitorId, monitorSnapshots.targetId, monitorSnapshots.urlKey],
            set: { pageId: sql`excluded.page_id`, url: sql`excluded.url`, checkId: sql`excluded.check_id`, seenAt: sql`now()` },
          });
      }
      // A page that failed this time keeps its snapshot, seen by this check so it is not taken for removed.
      const failed = checkPages.filter((p) => p.status === 'error').map((p) => p.urlKey);
      if (failed.length > 0) {
        await tx
          .update(monitorSnapshots)
          .set({ checkId, seenAt: sql`now()` })
          .where(and(eq(monitorSnapshots.monitorId, monitorId), eq(monitorSnapshots.targetId, targetId), inArray(monitorSnapshots.urlKey, failed)));
      }
    });
  }
  if (!complete) return;
  await db.transaction(async (tx) => {
    const stale = await tx
      .select()
      .from(monitorSnapshots)
      .where(and(eq(monitorSnapshots.monitorId, monitorId), eq(monitorSnapshots.targetId, targetId), ne(monitorSnapshots.checkId, checkId)));
    if (stale.length === 0) return;
    if (plan.type === 'crawl') {
      await tx
        .insert(monitorCheckPages)
        .values(stale.map((s) => ({ checkId, targetId, urlKey: s.urlKey, url: s.url, status: 'removed' as const, jobId, previousPageId: s.pageId, error: null })))
        .onConflictDoNothing();
    }
    await tx.delete(monitorSnapshots).where(and(eq(monitorSnapshots.monitorId, monitorId), eq(monitorSnapshots.targetId, targetId), ne(monitorSnapshots.checkId, checkId)));
  });
}
