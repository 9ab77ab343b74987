import { sql } from 'drizzle-orm';
import { hashApiKey, liveKeyQuery, type AuthenticatedTeam } from '../accounts/api-keys';
import { buildOnce, runBuilt, type BuiltStatement } from '../db/built-once';
import type { Db } from '../db/client';
import { rateLimitWindows, teamLimits } from '../db/schema';

/** Length of a counting window; `RateLimit-Reset` counts down to its end. */
export const WINDOW_SECONDS = 60;

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

/** A live key's team and, when any limit applies to it, where its buckets stand. */
export interface KeyedRequest {
  team: AuthenticatedTeam;
  /** Empty when neither the key nor its team has a limit: nothing was counted. */
  buckets: BucketState[];
}

let counting: BuiltStatement | undefined;

/** The statement of `authenticateRequest`, built once (built-once.ts): it runs before every authenticated request. */
function countingStatement(db: Db): BuiltStatement {
  if (counting) return counting;
  const w = rateLimitWindows;
  const window = sql`date_bin(${`${WINDOW_SECONDS} seconds`}::interval, now(), timestamptz 'epoch')`;
  counting = buildOnce(sql`
    with k (team_id, team_name, key_prefix) as (${liveKeyQuery(db, sql.placeholder('keyHash')).getSQL()}),
    limits as (
      select k.*, coalesce(own.key_requests_per_minute, ${sql.placeholder('perKey')}::int) as key_limit,
             coalesce(own.requests_per_minute, ${sql.placeholder('perTeam')}::int) as team_limit,
             own.pages_in_flight
      from k left join ${teamLimits} own on own.team_id = k.team_id
    ),
    hit as (
      insert into ${w} (bucket, window_start, hits)
      select b.bucket, ${window}, 1
      from limits cross join lateral (values (1, 'key:' || limits.key_prefix), (2, 'team:' || limits.team_id::text)) b(lock_order, bucket)
      where limits.key_limit > 0 or limits.team_limit > 0
      order by b.lock_order
      on conflict (bucket) do update set
        hits = case when ${w}.window_start = excluded.window_start then ${w}.hits + 1 else 1 end,
        window_start = excluded.window_start
      returning bucket, hits, window_start
    )
    select limits.team_id, limits.team_name, limits.key_prefix, limits.pages_in_flight, split_part(hit.bucket, ':', 1) as bucket, hit.hits,
           case when hit.bucket like 'key:%' then limits.key_limit else limits.team_limit end as "limit",
           ceil(extract(epoch from hit.window_start + ${`${WINDOW_SECONDS} seconds`}::interval - now()))::int as reset
    from limits left join hit on true`);
  return counting;
}

/** A row of `countingStatement`: the key's team, and one per bucket counted (none when no limit applies). */
interface CountedRow {
  team_id: string;
  team_name: string;
  key_prefix: string;
  pages_in_flight: number | null;
  bucket: string | null;
  limit: number;
  hits: number;
  reset: number;
}

/**
 * Authenticates the key, reads its team's limits and counts the request against its key's and
 * its team's windows, in one statement (one round trip before every authenticated route's work),
 * so every API replica sees the same counts. Nothing is written when no limit applies. A bucket's
 * row is reset in place when its window is over. Rows are locked key first, then team, in every
 * statement, so two requests cannot deadlock. Undefined: no live key.
 */
export async function authenticateRequest(db: Db, key: string, defaults: RequestLimits): Promise<KeyedRequest | undefined> {
  const rows = await runBuilt<CountedRow>(db, countingStatement(db), { keyHash: hashApiKey(key), perKey: defaults.perKey, perTeam: defaults.perTeam });
  const [first] = rows;
  if (!first) return undefined;
  return {
    team: { teamId: first.team_id, teamName: first.team_name, keyPrefix: first.key_prefix, ...(first.pages_in_flight !== null && { pagesInFlight: Number(first.pages_in_flight) }) },
    buckets: rows
      .filter((r) => r.bucket !== null)
      .map((r) => ({ bucket: r.bucket as BucketState['bucket'], limit: Number(r.limit), hits: Number(r.hits), resetSeconds: Math.max(1, Number(r.reset)) })),
  };
}
