import { defineTool } from '../tool';

export const creditUsageTool = defineTool({
  name: 'firecrawl_credit_usage',
  title: 'Credit balance',
  description: `Get the calling team's remaining credits (\`remainingCredits\`). Every operation is metered in credits: 1 per scraped page, more for a browser render, a screenshot or JSON extraction.`,
  input: {},
  annotations: { readOnlyHint: true, openWorldHint: false, destructiveHint: false },
  async run(_args, { api }) {
    const { data } = await api.get('/v1/team/credit-usage');
    return { content: [{ type: 'text', text: JSON.stringify({ remainingCredits: data.remaining_credits }, null, 2) }] };
  },
});
