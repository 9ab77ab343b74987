import { and, asc, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import type { Rows } from '../db/two-step-transaction';
import { teamRoom } from '../limits/team-in-flight';
import { crawlBudgets, crawlHosts, edges, pages, type PageStatus } from '../db/schema';

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
  /** The crawl's team and its default limit of pages in flight (see limits/team-in-flight.ts). */
  team: { id: string; pagesInFlight: number };
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

/** Adding discovered URLs to a crawl's frontier: reads, and the writes that follow from what they found. */
export interface Enqueue {
  /** Which of the URLs the crawl has a row for already, and the room its limit leaves. */
  reads: [known: SQLWrapper, room: SQLWrapper];
  /** The writes, given the rows `reads` returned; they go out together at the end of a transaction. */
  writes(results: Rows[]): SQLWrapper[];
}

/**
 * Adds discovered URLs to a crawl's frontier, in the caller's transaction (see twoStepTransaction).
 * A URL already known keeps its row (a shorter path lowers a queued page's depth); new ones are
 * admitted in order up to the crawl's limit, counted under its budget row's lock, so however
 * many pages finish at once the crawl never takes more than its limit, nor queues more than it
 * can use. The room left is also read, unlocked, with the known URLs: it only ever shrinks, so
 * a page sends no more new URLs than that (robots-blocked ones are recorded within the same
 * room), and a page of thousands of links costs lookups, not thousands of inserts. Pages whose
 * links are all known (most, once a site's menus have been seen) take no lock, nor does any page
 * once the limit is reached. Edges from `fromKey` go to every URL that has a node. Lists travel
 * as array parameters, so each statement is prepared once whatever the number of links.
 */
export function enqueue(
  jobId: string,
  depth: number,
  candidates: Candidate[],
  fromKey: string | null,
  /** False past maxDepth: only edges to URLs already known are recorded. */
  admitNew = true,
): Enqueue {
  const unique = [...new Map(candidates.filter((c) => c.key !== fromKey).map((c) => [c.key, c])).values()];
  return {
    reads: [
      // One probe of the (job, URL) index per key. Written as `url_key = any(...)`, the planner may
      // match only the job and filter every page of it by the list, if it believes the job small.
      sql`select k.key, p.status, p.depth from unnest(${textArray(unique.map((c) => c.key))}) as k(key)
        cross join lateral (select status, depth from ${pages} where job_id = ${jobId}::uuid and url_key = k.key limit 1) p`,
      sql`select greatest(0, page_limit - admitted)::int as room from ${crawlBudgets} where job_id = ${jobId}::uuid`,
    ],
    writes([rows, budget]) {
      if (unique.length === 0) return [];
      const known = rows as { key: string; status: PageStatus; depth: number }[];
      const knownKeys = new Set(known.map((k) => k.key));
      const room = admitNew ? Number(budget?.[0]?.room ?? 0) : 0;
      const unknown = unique.filter((c) => !knownKeys.has(c.key));
      const queued = unknown.filter((c) => !c.blocked).slice(0, room);
      const blocked = unknown.filter((c) => c.blocked).slice(0, room);
      const shorter = known.filter((k) => k.status === 'queued' && k.depth > depth).map((k) => k.key);
      return [
        admitAndLink(jobId, depth, queued, blocked, [...knownKeys], fromKey),
        ...(shorter.length > 0
          ? [sql`update ${pages} set depth = ${depth}::int where job_id = ${jobId}::uuid and url_key = any(${textArray(shorter)}) and status = 'queued'`]
          : []),
      ];
    },
  };
}

/**
 * New frontier rows and the page's edges in one statement. Robots-blocked URLs are all
 * admitted (they are listed, never fetched, and do not count); the others in order, up to the
 * room the crawl's budget row has left once locked. That row is locked only when there is
 * something to count, until the transaction ends, and moved by what was really inserted (a URL
 * another page inserted meanwhile is not counted twice). Edges go to the known URLs and the
 * admitted ones.
 */
function admitAndLink(jobId: string, depth: number, queued: Candidate[], blocked: Candidate[], knownKeys: string[], fromKey: string | null): SQL {
  return sql`
    with room as (
      select greatest(0, page_limit - admitted) as n from ${crawlBudgets}
      where job_id = ${jobId}::uuid and ${queued.length}::int > 0
      for no key update
    ),
    admitted as (
      select key, url, host, 'queued' as status
      from unnest(${textArray(queued.map((c) => c.key))}, ${textArray(queued.map((c) => c.url))}, ${textArray(queued.map((c) => c.host))})
        with ordinality as q(key, url, host, ord)
      where q.ord <= (select n from room)
      union all
      select key, url, host, 'blocked'
      from unnest(${textArray(blocked.map((c) => c.key))}, ${textArray(blocked.map((c) => c.url))}, ${textArray(blocked.map((c) => c.host))}) as b(key, url, host)
    ),
    inserted as (
      insert into ${pages} (job_id, url_key, url, host, status, depth)
      select ${jobId}::uuid, key, url, host, status, ${depth}::int from admitted
      on conflict do nothing
      returning status
    ),
    counted as (
      update ${crawlBudgets} set admitted = admitted + (select count(*) from inserted where status = 'queued')
      where job_id = ${jobId}::uuid and exists (select 1 from inserted where status = 'queued')
    ),
    linked as (
      insert into ${edges} (job_id, from_key, to_keys)
      select ${jobId}::uuid, from_key, to_keys
      from (select ${fromKey}::text as from_key, ${textArray(knownKeys)} || array(select key from admitted) as to_keys) e
      where from_key is not null and cardinality(to_keys) > 0
      on conflict do nothing
    )
    select 1`;
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
 * it has a delay, so its requests are strictly sequential). A team whose crawls have as many
 * batches in flight as its limit allows claims none until one ends.
 */
export async function claimBatches(db: Db, jobId: string, claimIds: string[], o: ClaimOptions): Promise<ClaimResult> {
  return db.transaction(async (tx) => {
    // The team's lock first: every claim takes the two in this order.
    const room = await teamRoom(tx, o.team.id, o.team.pagesInFlight);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${jobId}, 0))`);
    const prior = await tx
      .select(claimedColumns)
      .from(pages)
      .where(and(eq(pages.jobId, jobId), inArray(pages.claimId, claimIds)))
      .orderBy(asc(pages.id));
    const batches = new Map<string, ClaimedPage[]>();
    for (const p of prior) batches.set(p.claimId!, [...(batches.get(p.claimId!) ?? []), { ...p, host: p.host ?? '' }]);
    // Over its team's limit, the crawl claims nothing and waits its turn: not exhausted, it polls again.
    const fresh = claimIds.filter((id) => !batches.has(id)).slice(0, room);

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
