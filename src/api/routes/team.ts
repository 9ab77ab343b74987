import { z } from 'zod';
import { creditBalance } from '../../credits/ledger';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';

export function registerTeamRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'get',
    path: '/v1/team/credit-usage',
    tag: 'Account',
    summary: "The calling team's remaining credits",
    auth: true,
    responses: {
      200: {
        description: 'Remaining credits',
        schema: z.object({ success: z.literal(true), data: z.object({ remaining_credits: z.number().int() }) }),
      },
    },
    handler: async (ctx) => {
      ctx.body = { success: true, data: { remaining_credits: await creditBalance(deps.db, ctx.state.team.teamId) } };
    },
  });
}
