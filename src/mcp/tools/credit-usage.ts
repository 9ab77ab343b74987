import { z } from 'zod';
import { budgetedResult } from '../result-budget';
import { defineTool } from '../tool';

export const creditUsageTool = defineTool({
  name: 'firecrawl_credit_usage',
  title: 'Credit usage',
  description: `Get the calling team's credits: the current view answers \`remainingCredits\` and \`planCredits\` (every credit granted; there are no billing periods here, so their bounds are null); the historical view answers the credits charged per calendar month, newest first (\`periods\`). Every operation is metered in credits: 1 per scraped page, more for a browser render, a screenshot or JSON extraction.`,
  input: {
    view: z.enum(['current', 'historical']).optional().describe('current (default): the balance; historical: credits used per month.'),
  },
  notServed: { byApiKey: 'usage is recorded per team, not per API key' },
  annotations: { readOnlyHint: true, openWorldHint: false, destructiveHint: false },
  async run({ view = 'current' }, { api, config }) {
    if (view === 'historical') {
      const { periods } = await api.get<{ periods: unknown[] }>('/v2/team/credit-usage/historical');
      // Newest first, so a result cut to the budget loses the oldest months.
      return budgetedResult({ periods: periods.reverse() }, config.MCP_RESULT_MAX_CHARS, () => 'only the oldest months are missing; they cannot be read through this tool.');
    }
    const { data } = await api.get('/v2/team/credit-usage');
    return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }] };
  },
});
