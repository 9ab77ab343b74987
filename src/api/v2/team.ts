import { z } from 'zod';
import { creditBalance } from '../../credits/ledger';
import { EXTRACT_TOKENS } from '../../credits/pricing';
import { AppError } from '../../errors';
import { teamLimitsOf } from '../../limits/team-limits';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';
import { creditsByMonth, creditsGranted, queueCounts, tokensByMonth } from './team-usage';

const historicalQuery = z.strictObject({
  byApiKey: z.enum(['true', 'false']).optional().describe('Per-key breakdown: not available, the ledger records teams, not keys.'),
});

function refuseByApiKey(query: z.infer<typeof historicalQuery>): void {
  if (query.byApiKey === 'true') {
    throw new AppError('BAD_REQUEST', 'Usage per API key is not available: this service records usage per team. Leave byApiKey out.', [{ path: 'byApiKey', message: 'not available' }]);
  }
}

const period = (extra: Record<string, z.ZodType>) => z.object({ startDate: z.string(), endDate: z.string(), ...extra });

/** The team's page concurrency: its override, else the deployment's TEAM_PAGES_IN_FLIGHT. */
async function maxConcurrency(deps: ApiDeps, teamId: string): Promise<number> {
  return (await teamLimitsOf(deps.db, teamId)).pagesInFlight ?? deps.config.TEAM_PAGES_IN_FLIGHT;
}

/** GET /v2/team/* and /v2/concurrency-check: read from the ledger and the job tables. */
export function registerV2TeamRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'get',
    path: '/v2/team/credit-usage',
    tag: 'Firecrawl v2',
    summary: "The team's remaining credits (v2)",
    description: 'There are no billing periods here: `planCredits` is every credit ever granted to the team, and the period bounds are null.',
    auth: true,
    responses: {
      200: {
        description: 'Remaining credits',
        schema: z.object({
          success: z.literal(true),
          data: z.object({ remainingCredits: z.number().int(), planCredits: z.number().int(), billingPeriodStart: z.null(), billingPeriodEnd: z.null() }),
        }),
      },
    },
    handler: async (ctx) => {
      const { teamId } = ctx.state.team;
      const [remainingCredits, planCredits] = await Promise.all([creditBalance(deps.db, teamId), creditsGranted(deps.db, teamId)]);
      ctx.body = { success: true, data: { remainingCredits, planCredits, billingPeriodStart: null, billingPeriodEnd: null } };
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/team/token-usage',
    tag: 'Firecrawl v2',
    summary: 'LLM tokens the remaining credits pay for (v2)',
    description: `Tokens are paid in credits here (1 credit per ${EXTRACT_TOKENS.perCredit} extraction tokens beyond those an extract includes): \`remainingTokens\` is what the balance buys.`,
    auth: true,
    responses: {
      200: {
        description: 'Remaining tokens',
        schema: z.object({ success: z.literal(true), data: z.object({ remainingTokens: z.number().int(), billingPeriodStart: z.null(), billingPeriodEnd: z.null() }) }),
      },
    },
    handler: async (ctx) => {
      const remainingTokens = Math.max(0, await creditBalance(deps.db, ctx.state.team.teamId)) * EXTRACT_TOKENS.perCredit;
      ctx.body = { success: true, data: { remainingTokens, billingPeriodStart: null, billingPeriodEnd: null } };
    },
  });

  const historical = [
    { path: '/v2/team/credit-usage/historical', summary: 'Credits charged per month (v2)', field: 'creditsUsed', months: creditsByMonth },
    { path: '/v2/team/token-usage/historical', summary: 'LLM tokens used per month (v2)', field: 'tokensUsed', months: tokensByMonth },
  ] as const;
  for (const { path, summary, field, months } of historical) {
    routes.add({
      method: 'get',
      path,
      tag: 'Firecrawl v2',
      summary,
      auth: true,
      query: historicalQuery,
      responses: { 200: { description: 'Calendar months (UTC), oldest first', schema: z.object({ success: z.literal(true), periods: z.array(period({ [field]: z.number().int() })) }) } },
      handler: async (ctx, { query }) => {
        refuseByApiKey(query);
        const periods = await months(deps.db, ctx.state.team.teamId);
        ctx.body = { success: true, periods: periods.map(({ amount, ...p }) => ({ ...p, [field]: amount })) };
      },
    });
  }

  routes.add({
    method: 'get',
    path: '/v2/team/queue-status',
    tag: 'Firecrawl v2',
    summary: "The team's work under way (v2)",
    description: 'Active: pages being fetched for its crawls and batches, plus its single-page jobs running. Waiting: pages queued in its crawls and batches.',
    auth: true,
    responses: {
      200: {
        description: 'Queue counts',
        schema: z.object({
          success: z.literal(true),
          jobsInQueue: z.number().int(),
          activeJobsInQueue: z.number().int(),
          waitingJobsInQueue: z.number().int(),
          maxConcurrency: z.number().int(),
          mostRecentSuccess: z.string().nullable(),
        }),
      },
    },
    handler: async (ctx) => {
      const { teamId } = ctx.state.team;
      const [counts, max] = await Promise.all([queueCounts(deps.db, teamId), maxConcurrency(deps, teamId)]);
      ctx.body = {
        success: true,
        jobsInQueue: counts.active + counts.waiting,
        activeJobsInQueue: counts.active,
        waitingJobsInQueue: counts.waiting,
        maxConcurrency: max,
        mostRecentSuccess: counts.mostRecentSuccess?.toISOString() ?? null,
      };
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/concurrency-check',
    tag: 'Firecrawl v2',
    summary: "Pages the team is fetching now, and how many it may (v2)",
    auth: true,
    responses: {
      200: { description: 'Concurrency', schema: z.object({ success: z.literal(true), data: z.object({ concurrency: z.number().int(), maxConcurrency: z.number().int() }) }) },
    },
    handler: async (ctx) => {
      const { teamId } = ctx.state.team;
      const [counts, max] = await Promise.all([queueCounts(deps.db, teamId), maxConcurrency(deps, teamId)]);
      ctx.body = { success: true, data: { concurrency: counts.active, maxConcurrency: max } };
    },
  });
}
