import type { Priority } from '@temporalio/common';
import type { AuthenticatedTeam } from '../accounts/api-keys';
import type { Queryable } from '../db/client';
import { CRAWL_PRIORITY } from './crawl-priority';
import { teamLimitsOf } from './team-limits';

/**
 * The Temporal priority of a team's workflows: the team is the fairness key, so when a task
 * queue is backlogged matching hands out tasks in turn between teams instead of in arrival
 * order, and one team's burst waits behind itself, not in front of the others. Its weight is the
 * operator's pagesInFlight for the team over the deployment's TEAM_PAGES_IN_FLIGHT: a team given
 * four times the pages at once gets four times the share of a backlogged queue; 1 without one.
 * `base` carries a priority key (crawls run one step below scrapes). Activities inherit it.
 */
export function teamPriority(team: Pick<AuthenticatedTeam, 'teamId' | 'pagesInFlight'>, defaultPagesInFlight: number, base: Priority = {}): Priority {
  return {
    ...base,
    fairnessKey: team.teamId,
    fairnessWeight: team.pagesInFlight === undefined ? 1 : team.pagesInFlight / defaultPagesInFlight,
  };
}

/** A team's crawl priority: CRAWL_PRIORITY with the team's fairness key and weight, its limits read. */
export async function teamCrawlPriority(db: Queryable, teamId: string, defaultPagesInFlight: number): Promise<Priority> {
  const { pagesInFlight } = await teamLimitsOf(db, teamId);
  return teamPriority({ teamId, ...(pagesInFlight !== null && { pagesInFlight }) }, defaultPagesInFlight, CRAWL_PRIORITY);
}
