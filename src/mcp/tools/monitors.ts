import { z } from 'zod';
import { budgetedResult } from '../result-budget';
import { defineTool, type ToolSpec } from '../tool';

/** The monitor tools as firecrawl-mcp names them, over /v2/monitor. */
const at = (id: string, rest = '') => `/v2/monitor/${encodeURIComponent(id)}${rest}`;
const query = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
  return q.size > 0 ? `?${q}` : '';
};
const json = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value, null, 2) }] });

const createTool = defineTool({
  name: 'firecrawl_monitor_create',
  title: 'Create a monitor',
  description: `Watch pages, a site or search queries on a schedule; each check compares every page with its previous snapshot (same / new / changed / removed / error, with a diff) and can POST a webhook. Simple form: \`page\` or \`pages\` (or \`queries\`), \`scheduleText\` (e.g. "every 30 minutes", "daily at 9:00"), optional \`name\`, \`goal\` (an LLM judges each change against it; needs an LLM on the server) and \`webhookUrl\`. Full form: \`body\`, the request of POST /v2/monitor (targets scrape/crawl/search, schedule.cron or schedule.text, webhook, retentionDays). Returns the monitor.`,
  input: {
    body: z.record(z.string(), z.unknown()).optional().describe('The whole create request; the other arguments are ignored when given.'),
    page: z.string().optional().describe('One URL to watch.'),
    pages: z.array(z.string()).optional().describe('URLs to watch.'),
    queries: z.array(z.string()).optional().describe('Search queries to watch for new results (instead of pages).'),
    searchWindow: z.enum(['5m', '15m', '1h', '6h', '24h', '7d']).optional(),
    maxResults: z.number().int().min(1).max(50).optional(),
    name: z.string().optional(),
    scheduleText: z.string().optional().describe('When to check, in words (default "every 30 minutes").'),
    timezone: z.string().optional(),
    goal: z.string().optional(),
    webhookUrl: z.string().optional(),
  },
  annotations: { readOnlyHint: false, openWorldHint: true, destructiveHint: false },
  async run(args, { api }) {
    const urls = [...(args.page ? [args.page] : []), ...(args.pages ?? [])];
    const target = args.queries?.length
      ? { type: 'search', queries: args.queries, ...(args.searchWindow && { searchWindow: args.searchWindow }), ...(args.maxResults && { maxResults: args.maxResults }) }
      : { type: 'scrape', urls };
    const body = args.body ?? {
      name: args.name ?? `Monitor ${args.queries?.[0] ?? urls[0] ?? ''}`.trim(),
      schedule: { text: args.scheduleText ?? 'every 30 minutes', ...(args.timezone && { timezone: args.timezone }) },
      targets: [target],
      ...(args.goal && { goal: args.goal }),
      ...(args.webhookUrl && { webhook: { url: args.webhookUrl } }),
    };
    return json((await api.post('/v2/monitor', body)).data);
  },
});

const listTool = defineTool({
  name: 'firecrawl_monitor_list',
  title: 'List monitors',
  description: "The team's monitors, newest first: each with its schedule (cron), next and last run, targets and the last check's summary.",
  input: { limit: z.number().int().min(1).max(100).optional(), offset: z.number().int().min(0).optional() },
  annotations: { readOnlyHint: true, openWorldHint: false, destructiveHint: false },
  async run({ limit, offset }, { api, config }) {
    const { data, pagination } = await api.get(`/v2/monitor${query({ limit, offset })}`);
    return budgetedResult({ monitors: data, pagination }, config.MCP_RESULT_MAX_CHARS, () => 'call firecrawl_monitor_list with a smaller limit, or an offset.');
  },
});

const getTool = defineTool({
  name: 'firecrawl_monitor_get',
  title: 'Get a monitor',
  description: 'One monitor by id: configuration, schedule, next and last run, the last check summary.',
  input: { id: z.string() },
  annotations: { readOnlyHint: true, openWorldHint: false, destructiveHint: false },
  async run({ id }, { api }) {
    return json((await api.get(at(id))).data);
  },
});

const updateTool = defineTool({
  name: 'firecrawl_monitor_update',
  title: 'Update a monitor',
  description: 'Change a monitor: `body` as PATCH /v2/monitor/{id} takes it (name, status "active"/"paused", schedule, targets, goal, webhook, notification, retentionDays). Returns the monitor.',
  input: { id: z.string(), body: z.record(z.string(), z.unknown()) },
  annotations: { readOnlyHint: false, openWorldHint: true, destructiveHint: true },
  async run({ id, body }, { api }) {
    return json((await api.patch(at(id), body)).data);
  },
});

const deleteTool = defineTool({
  name: 'firecrawl_monitor_delete',
  title: 'Delete a monitor',
  description: 'Delete a monitor, its schedule and its check history. Cannot be undone.',
  input: { id: z.string() },
  annotations: { readOnlyHint: false, openWorldHint: false, destructiveHint: true },
  async run({ id }, { api }) {
    return json(await api.delete(at(id)));
  },
});

const runTool = defineTool({
  name: 'firecrawl_monitor_run',
  title: 'Run a monitor now',
  description: 'Start a check now, outside the schedule. Returns the check (read its pages with firecrawl_monitor_check once it is completed).',
  input: { id: z.string() },
  annotations: { readOnlyHint: false, openWorldHint: true, destructiveHint: false },
  async run({ id }, { api }) {
    return json((await api.post(at(id, '/run'), {})).data);
  },
});

const checksTool = defineTool({
  name: 'firecrawl_monitor_checks',
  title: "A monitor's checks",
  description: "A monitor's checks, newest first, each with its status, trigger, summary counts and credits.",
  input: {
    id: z.string(),
    limit: z.number().int().min(1).max(100).optional(),
    offset: z.number().int().min(0).optional(),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'partial', 'skipped_overlap', 'skipped_no_credits']).optional(),
  },
  annotations: { readOnlyHint: true, openWorldHint: false, destructiveHint: false },
  async run({ id, limit, offset, status }, { api, config }) {
    const { data, pagination } = await api.get(at(id, `/checks${query({ limit, offset, status })}`));
    return budgetedResult({ checks: data, pagination }, config.MCP_RESULT_MAX_CHARS, () => `call firecrawl_monitor_checks with {"id": "${id}"} and a smaller limit, or an offset.`);
  },
});

const checkTool = defineTool({
  name: 'firecrawl_monitor_check',
  title: 'A check, with its pages',
  description: 'One check and its pages: each page same / new / changed / removed / error, with its diff (git-style text for markdown, per field for JSON) and any judgment. `pageStatus` keeps one status; `skip` reads on.',
  input: {
    id: z.string(),
    checkId: z.string(),
    limit: z.number().int().min(1).max(1_000).optional(),
    skip: z.number().int().min(0).optional(),
    pageStatus: z.enum(['same', 'new', 'changed', 'removed', 'error']).optional(),
  },
  annotations: { readOnlyHint: true, openWorldHint: false, destructiveHint: false },
  async run({ id, checkId, limit, skip = 0, pageStatus }, { api, config }) {
    const { data, pagination } = await api.get(at(id, `/checks/${encodeURIComponent(checkId)}${query({ limit, skip, status: pageStatus })}`));
    return budgetedResult({ ...data, pagination }, config.MCP_RESULT_MAX_CHARS, (cuts) => {
      const kept = cuts.find((c) => c.path === 'pages')?.kept ?? data.pages.length;
      return `call firecrawl_monitor_check with {"id": "${id}", "checkId": "${checkId}", "skip": ${skip + kept}} for the next pages.`;
    });
  },
});

/** Every monitor tool, in firecrawl-mcp's order. */
export const MONITOR_TOOLS = [createTool, listTool, getTool, updateTool, deleteTool, runTool, checksTool, checkTool] as unknown as ToolSpec[];
