import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { edges, pages } from '../db/schema';
import { pageColumns, type PageRow } from '../db/page-row';

/** Documents in one answer at most, and roughly the most bytes of them. */
export const MAX_PAGE_SIZE = 100;
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/**
 * Scraped pages of a crawl in the order they were scraped, from `skip`, each rendered by
 * `render` (the v1 or the v2 document). Stops at `limit` documents or about 10 MB of JSON,
 * whichever comes first; `more` says whether pages remain.
 */
export async function crawlPages<D>(db: Db, jobId: string, render: (row: PageRow) => D | Promise<D>, skip: number, limit: number): Promise<{ data: D[]; more: boolean }> {
  const rows = await db
    .select(pageColumns)
    .from(pages)
    .where(and(eq(pages.jobId, jobId), eq(pages.status, 'scraped')))
    .orderBy(asc(pages.scrapedAt), asc(pages.id))
    .offset(skip)
    .limit(limit + 1);
  const data: D[] = [];
  let bytes = 0;
  for (const row of rows.slice(0, limit)) {
    const doc = await render(row);
    bytes += JSON.stringify(doc).length;
    if (data.length > 0 && bytes > MAX_RESPONSE_BYTES) return { data, more: true };
    data.push(doc);
  }
  return { data, more: rows.length > limit };
}

export interface CrawlError {
  id: string;
  timestamp: string;
  url: string;
  error: string;
  code: string;
  attempts: number;
}

/** Pages that failed for good, and URLs robots.txt kept us from. */
export async function crawlErrors(db: Db, jobId: string): Promise<{ errors: CrawlError[]; robotsBlocked: string[] }> {
  const failed = await db
    .select({ id: pages.id, url: pages.url, error: pages.error, code: pages.errorCode, attempts: pages.attempts, at: pages.scrapedAt, created: pages.createdAt })
    .from(pages)
    .where(and(eq(pages.jobId, jobId), eq(pages.status, 'failed')))
    .orderBy(asc(pages.scrapedAt));
  const blocked = await db
    .select({ url: pages.url })
    .from(pages)
    .where(and(eq(pages.jobId, jobId), eq(pages.status, 'blocked')))
    .orderBy(asc(pages.url));
  return {
    errors: failed.map((f) => ({
      id: f.id,
      timestamp: (f.at ?? f.created).toISOString(),
      url: f.url,
      error: f.error ?? 'failed',
      code: f.code ?? 'INTERNAL_ERROR',
      attempts: f.attempts,
    })),
    robotsBlocked: blocked.map((b) => b.url),
  };
}

export interface CrawlGraph {
  nodes: { url: string; depth: number; status: string; statusCode: number | null }[];
  edges: { from: string; to: string }[];
}

/** Every URL the crawl knows and the links between them. */
export async function crawlGraph(db: Db, jobId: string): Promise<CrawlGraph> {
  const nodes = await db
    .select({ url: pages.url, depth: pages.depth, status: pages.status, statusCode: pages.statusCode })
    .from(pages)
    .where(eq(pages.jobId, jobId))
    .orderBy(asc(pages.depth), asc(pages.url));
  const links = await db.execute<{ from: string; to: string }>(sql`
    select f.url as "from", t.url as "to" from ${edges} e cross join unnest(e.to_keys) as l(to_key)
    join ${pages} f on f.job_id = e.job_id and f.url_key = e.from_key
    join ${pages} t on t.job_id = e.job_id and t.url_key = l.to_key
    where e.job_id = ${jobId} order by 1, 2`);
  return { nodes, edges: [...links] };
}

/** The graph in Graphviz DOT: nodes by URL, labelled with depth and status. */
export function graphToDot(graph: CrawlGraph): string {
  const q = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const lines = ['digraph crawl {', '  rankdir=LR;', '  node [shape=box, fontsize=10];'];
  for (const n of graph.nodes) {
    const style = n.status === 'failed' ? ', color=red' : n.status === 'blocked' ? ', style=dashed' : '';
    lines.push(`  ${q(n.url)} [label=${q(`${n.url}\ndepth ${n.depth} · ${n.status}${n.statusCode ? ` ${n.statusCode}` : ''}`)}${style}];`);
  }
  for (const e of graph.edges) lines.push(`  ${q(e.from)} -> ${q(e.to)};`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** Pages a watcher may not have seen: scraped at or after `since`, oldest first, ids only. */
export async function pagesScrapedSince(db: Db, jobId: string, since: Date): Promise<{ id: string; scrapedAt: Date }[]> {
  const rows = await db
    .select({ id: pages.id, scrapedAt: pages.scrapedAt })
    .from(pages)
    .where(and(eq(pages.jobId, jobId), eq(pages.status, 'scraped'), gte(pages.scrapedAt, since)))
    .orderBy(asc(pages.scrapedAt), asc(pages.id));
  return rows.map((r) => ({ id: r.id, scrapedAt: r.scrapedAt ?? since }));
}

/** Stored pages by id, in the order of `ids`. */
export async function pagesById(db: Db, ids: readonly string[]): Promise<PageRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.select(pageColumns).from(pages).where(inArray(pages.id, [...ids]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
