import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimitWindows, teamLimits } from '../db/schema';

/** Length of a counting window; `RateLimit-Reset` counts down to its end. */
export const WINDOW_SECONDS = 60;

/** The requester: its key (by display prefix) and its team. */
export interface Requester {
  keyPrefix: string;
  teamId: string;
}

/** Deployment-wide defaults, each overridable per team (team_limits); 0 means no limit. */
export interface RequestLimits {
  /** Requests per window of one key. */
  perKey: number;
  /** Requests per window of all of one team's keys. */
  perTeam: number;
}

/** Where one bucket stands after counting a request. */
export interface BucketState {
  bucket: 'key' | 'team';
  /** Requests this window allows; 0: unlimited. */
  limit: number;
  /** Requests counted this window, this one included. */
  hits: number;
  /** Seconds until the window ends and the count starts over. */
  resetSeconds: number;
}

/**
 * Counts one request against its key's and its team's windows and reads the team's limits, in
 * one statement, so every API replica sees the same counts. A bucket's row is reset in place
 * when its window is over. Rows are locked key first, then team, in every statement, so two
 * requests cannot deadlock.
 */
export async function countRequest(db: Db, who: Requester, defaults: RequestLimits): Promise<BucketState[]> {
  const w = rateLimitWindows;
  const window = sql`date_bin(${`${WINDOW_SECONDS} seconds`}::interval, now(), timestamptz 'epoch')`;
  const rows = await db.execute<{ bucket: string; limit: number; hits: number; reset: number }>(sql`
    with hit as (
      insert into ${w} (bucket, window_start, hits)
      values (${`key:${who.keyPrefix}`}, ${window}, 1), (${`team:${who.teamId}`}, ${window}, 1)
      on conflict (bucket) do update set
        hits = case when ${w}.window_start = excluded.window_start then ${w}.hits + 1 else 1 end,
        window_start = excluded.window_start
      returning bucket, hits, window_start
    ),
    own as (select * from ${teamLimits} where ${teamLimits.teamId} = ${who.teamId})
    select split_part(hit.bucket, ':', 1) as bucket, hit.hits,
           case when hit.bucket like 'key:%' then coalesce(own.key_requests_per_minute, ${defaults.perKey})
                else coalesce(own.requests_per_minute, ${defaults.perTeam}) end as "limit",
           ceil(extract(epoch from hit.window_start + ${`${WINDOW_SECONDS} seconds`}::interval - now()))::int as reset
    from hit left join own on true`);
  return rows.map((r) => ({ bucket: r.bucket as BucketState['bucket'], limit: Number(r.limit), hits: Number(r.hits), resetSeconds: Math.max(1, Number(r.reset)) }));
}
