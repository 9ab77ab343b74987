import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { crawlHosts, edges, jobs, pages, type PageStatus } from '../db/schema';

/** A URL found on a page (or in a sitemap), ready to enter the frontier. */
export interface Candidate {
  url: string;
  key: string;
  host: string;
  /** Refused by robots.txt: recorded as blocked, never fetched. */
  blocked: boolean;
}

export interface ClaimedPage {
  id: string;
  url: string;
  urlKey: string;
  depth: number;
  host: string;
  attempts: number;
}

export interface BatchClaim {
  claimId: string;
  pages: ClaimedPage[];
}

export interface ClaimResult {
  batches: BatchClaim[];
  /** Nothing is queued and nothing is in flight: the crawl is done. */
  exhausted: boolean;
  /** When nothing is ready yet but deferred pages are: the epoch ms the first one becomes ready. */
  nextReadyAt: number | null;
}

export interface ClaimOptions {
  /** Most pages one batch takes. */
  maxBatchSize: number;
  /** Most batches in flight against one host (1 where the host has a delay). */
  perHostBatches: number;
}

const claimedColumns = {
  id: pages.id,
  url: pages.url,
  urlKey: pages.urlKey,
  depth: pages.depth,
  host: pages.host,
  attempts: pages.attempts,
  claimId: pages.claimId,
};

/**
 * Adds discovered URLs to a crawl's frontier, inside the caller's transaction. The job row is
 * locked while counting, so however many pages finish at once the crawl never takes more than
 * its limit. A URL already known keeps its row; a shorter path lowers a queued page's depth.
 * Edges from `fromKey` are recorded to every URL that has a node. Lists travel as single array
 * parameters, so each statement is prepared once whatever the number of links.
 */
export async function enqueue(
  tx: Tx,
  jobId: string,
  depth: number,
  candidates: Candidate[],
  fromKey: string | null,
  /** False past maxDepth: only edges to URLs already known are recorded. */
  admitNew = true,
): Promise<number> {
  const unique = [...new Map(candidates.filter((c) => c.key !== fromKey).map((c) => [c.key, c])).values()];
  if (unique.length === 0) return 0;
  const [job] = await tx.execute<{ room: number }>(
    sql`select greatest(0, ${jobs.pageLimit} - ${jobs.discovered})::int as room from ${jobs} where ${jobs.id} = ${jobId} for no key update`,
  );
  const known = await tx.execute<{ key: string; status: PageStatus; depth: number }>(
    sql`select url_key as key, status, depth from ${pages} where job_id = ${jobId} and url_key = any(${textArray(unique.map((c) => c.key))})`,
  );
  const knownKeys = new Set(known.map((k) => k.key));
  const unknown = admitNew ? unique.filter((c) => !knownKeys.has(c.key)) : [];
  const blocked = unknown.filter((c) => c.blocked);
  const fresh = unknown.filter((c) => !c.blocked).slice(0, job?.room ?? 0);

  const rows = [...blocked.map((c) => ({ ...c, status: 'blocked' })), ...fresh.map((c) => ({ ...c, status: 'queued' }))];
  if (rows.length > 0) {
    await tx.execute(sql`
      insert into ${pages} (job_id, url_key, url, host, status, depth)
      select ${jobId}::uuid, key, url, host, status, ${depth}::int
      from unnest(${textArray(rows.map((r) => r.key))}, ${textArray(rows.map((r) => r.url))}, ${textArray(rows.map((r) => r.host))},
                  ${textArray(rows.map((r) => r.status))}) as r(key, url, host, status)
      on conflict do nothing`);
  }
  if (fresh.length > 0) {
    await tx.update(jobs).set({ discovered: sql`${jobs.discovered} + ${fresh.length}` }).where(eq(jobs.id, jobId));
  }
  const shorter = known.filter((k) => k.status === 'queued' && k.depth > depth).map((k) => k.key);
  if (shorter.length > 0) {
    await tx.update(pages).set({ depth }).where(and(eq(pages.jobId, jobId), inArray(pages.urlKey, shorter), eq(pages.status, 'queued')));
  }
  if (fromKey) {
    const targets = [...knownKeys, ...rows.map((r) => r.key)];
    if (targets.length > 0) {
      await tx.execute(sql`
        insert into ${edges} (job_id, from_key, to_keys) values (${jobId}::uuid, ${fromKey}::text, ${textArray(targets)})
        on conflict do nothing`);
    }
  }
  return fresh.length;
}

/** A list as one `text[]` parameter. */
function textArray(values: string[]) {
  return sql`${sql.param(values)}::text[]`;
}

/** Records a host's politeness delay for this crawl (first writer wins). */
export async function recordHostDelay(db: Db | Tx, jobId: string, host: string, delayMs: number): Promise<void> {
  await db.insert(crawlHosts).values({ jobId, host, delayMs }).onConflictDoNothing();
}

function groupByHost(ready: ClaimedPage[]): Map<string, ClaimedPage[]> {
  const byHost = new Map<string, ClaimedPage[]>();
  for (const page of ready) {
    const list = byHost.get(page.host) ?? [];
    list.push(page);
    byHost.set(page.host, list);
  }
  return byHost;
}

/**
 * Claims up to one batch of ready pages per claim id. Idempotent per claim id: a claim made
 * before (a retried local activity) is returned again, not made twice. Pages are claimed
 * breadth-first: only at the smallest depth still queued or in flight, so every page is
 * reached by its shortest path and `maxDepth` is exact. Each batch holds pages of one host and
 * is scraped in order, and no host has more than `perHostBatches` batches in flight (one when
 * it has a delay, so its requests are strictly sequential).
 */
export async function claimBatches(db: Db, jobId: string, claimIds: string[], o: ClaimOptions): Promise<ClaimResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${jobId}, 0))`);
    const prior = await tx
      .select(claimedColumns)
      .from(pages)
      .where(and(eq(pages.jobId, jobId), inArray(pages.claimId, claimIds)))
      .orderBy(asc(pages.id));
    const batches = new Map<string, ClaimedPage[]>();
    for (const p of prior) batches.set(p.claimId!, [...(batches.get(p.claimId!) ?? []), { ...p, host: p.host ?? '' }]);
    const fresh = claimIds.filter((id) => !batches.has(id));

    if (fresh.length > 0) {
      const [frontier] = await tx.execute<{ depth: number | null }>(sql`
        select min(depth) as depth from ${pages}
        where ${pages.jobId} = ${jobId}
          and (${pages.status} = 'scraping' or (${pages.status} = 'queued' and (${pages.notBefore} is null or ${pages.notBefore} <= now())))`);
      const depth = frontier?.depth;
      if (depth !== null && depth !== undefined) {
        const ready = (
          await tx
            .select(claimedColumns)
            .from(pages)
            .where(
              and(
                eq(pages.jobId, jobId),
                eq(pages.status, 'queued'),
                eq(pages.depth, depth),
                sql`(${pages.notBefore} is null or ${pages.notBefore} <= now())`,
              ),
            )
            .orderBy(asc(pages.id))
            .limit(fresh.length * o.maxBatchSize)
        ).map((p) => ({ ...p, host: p.host ?? '' }));
        const inFlight = new Map(
          (
            await tx.execute<{ host: string; batches: number }>(sql`
              select coalesce(${pages.host}, '') as host, count(distinct ${pages.claimId})::int as batches from ${pages}
              where ${pages.jobId} = ${jobId} and ${pages.status} = 'scraping' group by 1`)
          ).map((r) => [r.host, r.batches]),
        );
        const delays = new Map(
          (await tx.select({ host: crawlHosts.host, delayMs: crawlHosts.delayMs }).from(crawlHosts).where(eq(crawlHosts.jobId, jobId))).map((h) => [h.host, h.delayMs]),
        );
        const size = Math.min(o.maxBatchSize, Math.max(1, Math.ceil(ready.length / fresh.length)));
        const byHost = groupByHost(ready);
        for (const claimId of fresh) {
          const host = [...byHost.keys()].find((h) => (inFlight.get(h) ?? 0) < ((delays.get(h) ?? 0) > 0 ? 1 : o.perHostBatches));
          if (host === undefined) break;
          const list = byHost.get(host)!;
          const taken = list.splice(0, size);
          if (list.length === 0) byHost.delete(host);
          inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
          await tx
            .update(pages)
            .set({ status: 'scraping', claimId, notBefore: null })
            .where(inArray(pages.id, taken.map((p) => p.id)));
          batches.set(claimId, taken);
        }
      }
    }

    const claimed = [...batches.entries()].map(([claimId, list]) => ({ claimId, pages: list }));
    const [open] = await tx.execute<{ queued: number; scraping: number; next: Date | null }>(sql`
      select count(*) filter (where ${pages.status} = 'queued')::int as queued,
             count(*) filter (where ${pages.status} = 'scraping')::int as scraping,
             min(${pages.notBefore}) filter (where ${pages.status} = 'queued' and ${pages.notBefore} > now()) as next
      from ${pages} where ${pages.jobId} = ${jobId} and ${pages.status} in ('queued', 'scraping')`);
    return {
      batches: claimed,
      exhausted: (open?.queued ?? 0) === 0 && (open?.scraping ?? 0) === 0,
      nextReadyAt: open?.next ? new Date(open.next).getTime() : null,
    };
  });
}

/** The pages of a claimed batch that are still waiting to be scraped. */
export async function pendingPagesOf(db: Db, jobId: string, claimId: string): Promise<ClaimedPage[]> {
  const rows = await db
    .select(claimedColumns)
    .from(pages)
    .where(and(eq(pages.jobId, jobId), eq(pages.claimId, claimId), eq(pages.status, 'scraping')))
    .orderBy(asc(pages.id));
  return rows.map((p) => ({ ...p, host: p.host ?? '' }));
}

/** Puts a page back in the frontier to be tried again after `notBefore`. */
export async function requeuePage(db: Db, pageId: string, notBefore: Date, code: string, message: string): Promise<void> {
  await db
    .update(pages)
    .set({ status: 'queued', claimId: null, notBefore, attempts: sql`${pages.attempts} + 1`, errorCode: code, error: message })
    .where(and(eq(pages.id, pageId), eq(pages.status, 'scraping')));
}

/** Marks a claimed page failed for good. */
export async function failPage(db: Db, pageId: string, code: string, message: string): Promise<void> {
  await db
    .update(pages)
    .set({ status: 'failed', attempts: sql`${pages.attempts} + 1`, errorCode: code, error: message, scrapedAt: new Date() })
    .where(and(eq(pages.id, pageId), eq(pages.status, 'scraping')));
}

/** Fails whatever a batch left unfinished (its activity gave up), so the crawl can end. */
export async function failUnfinished(db: Db, jobId: string, claimId: string, code: string, message: string): Promise<number> {
  const rows = await db
    .update(pages)
    .set({ status: 'failed', errorCode: code, error: message, scrapedAt: new Date() })
    .where(and(eq(pages.jobId, jobId), eq(pages.claimId, claimId), eq(pages.status, 'scraping')))
    .returning({ id: pages.id });
  return rows.length;
}
