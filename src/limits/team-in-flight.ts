import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { jobs, pages } from '../db/schema';
import { teamLimitsOf } from './team-limits';

/**
 * How many more pages the team may start fetching, across all workers. Takes a lock on the team
 * that is held to the end of the transaction, so two crawls of one team claiming at once cannot
 * both take the last slot. A crawl batch fetches its pages one at a time, so the team's pages
 * being fetched are its claimed batches of unfinished crawls and batch scrapes.
 */
export async function teamRoom(tx: Tx, teamId: string, defaultLimit: number): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`team-in-flight:${teamId}`}, 0))`);
  const limit = (await teamLimitsOf(tx, teamId)).pagesInFlight ?? defaultLimit;
  const [row] = await tx.execute<{ n: number }>(sql`
    select count(distinct (${pages.jobId}, ${pages.claimId}))::int as n
    from ${jobs} join ${pages} on ${pages.jobId} = ${jobs.id}
    where ${jobs.teamId} = ${teamId} and ${jobs.status} = 'scraping' and ${jobs.kind} in ('crawl', 'batch')
      and ${pages.status} = 'scraping'`);
  return Math.max(0, limit - (row?.n ?? 0));
}
