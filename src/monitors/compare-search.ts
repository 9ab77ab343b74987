import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { monitorCheckPages, monitorSnapshots, searchResults } from '../db/schema';
import type { SearchTargetPlan } from './monitor-plan';
import { loadTarget, targetJobId } from './target-jobs';

/** Whether a result's host is one of `domains` or a subdomain of one. */
function onDomain(url: string, domains: readonly string[]): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return domains.some((d) => {
    const domain = d.toLowerCase().replace(/^\*?\./, '');
    return host === domain || host.endsWith(`.${domain}`);
  });
}

/** The target's domain filters on one result. */
export function admitted(plan: Pick<SearchTargetPlan, 'includeDomains' | 'excludeDomains'>, url: string): boolean {
  if (plan.includeDomains.length > 0 && !onDomain(url, plan.includeDomains)) return false;
  return !onDomain(url, plan.excludeDomains);
}

/**
 * Records a search target's results in the check: each ranked result its domains admit, `new`
 * when no earlier check of the target returned its URL, else `same`, and remembers them. One
 * transaction, so a retry after it committed changes nothing.
 */
export async function compareSearchResults(db: Db, checkId: string, targetId: string): Promise<void> {
  const { monitorId, plan } = await loadTarget(db, checkId, targetId);
  if (plan.type !== 'search') throw new Error('compareSearchResults compares search targets');
  const jobIds = plan.queries.map((_, n) => targetJobId(checkId, targetId, n));
  const rows = await db
    .select({ jobId: searchResults.jobId, url: searchResults.url, urlKey: searchResults.urlKey, title: searchResults.title, description: searchResults.description, rank: searchResults.rank, indexedPageId: searchResults.indexedPageId })
    .from(searchResults)
    .where(and(inArray(searchResults.jobId, jobIds), isNotNull(searchResults.rank)))
    .orderBy(asc(searchResults.rank));
  const seen = new Set<string>();
  const results = rows.filter((r) => {
    if (seen.has(r.urlKey) || !admitted(plan, r.url)) return false;
    seen.add(r.urlKey);
    return true;
  });
  await db.transaction(async (tx) => {
    const [already] = await tx.select({ n: sql<number>`count(*)::int` }).from(monitorCheckPages).where(and(eq(monitorCheckPages.checkId, checkId), eq(monitorCheckPages.targetId, targetId)));
    if ((already?.n ?? 0) > 0 || results.length === 0) return;
    const known = new Set(
      (await tx.select({ urlKey: monitorSnapshots.urlKey }).from(monitorSnapshots).where(and(eq(monitorSnapshots.monitorId, monitorId), eq(monitorSnapshots.targetId, targetId), inArray(monitorSnapshots.urlKey, [...seen])))).map((s) => s.urlKey),
    );
    await tx.insert(monitorCheckPages).values(
      results.map((r) => ({
        checkId,
        targetId,
        urlKey: r.urlKey,
        url: r.url,
        status: known.has(r.urlKey) ? ('same' as const) : ('new' as const),
        jobId: r.jobId,
        pageId: r.indexedPageId,
        metadata: { title: r.title, description: r.description, query: plan.queries[jobIds.indexOf(r.jobId)], position: r.rank },
      })),
    );
    await tx
      .insert(monitorSnapshots)
      .values(results.map((r) => ({ monitorId, targetId, urlKey: r.urlKey, url: r.url, pageId: null, checkId })))
      .onConflictDoUpdate({ target: [monitorSnapshots.monitorId, monitorSnapshots.targetId, monitorSnapshots.urlKey], set: { checkId: sql`excluded.check_id`, seenAt: sql`now()` } });
  });
}
