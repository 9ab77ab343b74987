import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { agentWorkflow } from '../../../workflows';
import { AGENT_LLM_TURN_CREDITS } from '../../agent/agent-llm';
import { stepCeiling, type AgentStep } from '../../agent/agent-run';
import { agentWebhookOf, agentWebhookSchema } from '../../agent/agent-webhook';
import { AGENT_FOLLOWED_PAGES, callsForList } from '../../agent/agent-links';
import { cancelAgentRun, listAgentRuns, type AgentResult } from '../../agent/agent-store';
import { AppError } from '../../errors';
import type { JsonSchema } from '../../json-schema/json-schema';
import { findJob, createJob, type JobRow } from '../../jobs/job-store';
import { teamPriority } from '../../limits/team-priority';
import { refineExtractSchema } from '../../scrape/extract-spec-fields';
import { clientTags, scrapeOptionsSchema } from '../../scrape/scrape-options';
import { urlKey } from '../../url/normalize-url';
import type { ApiDeps } from '../api-deps';
import { checkTarget, requireCredits } from '../preflight';
import type { RouteContext, RouteTable } from '../route';

const TAG = 'Firecrawl v2 agent';
/** Most URLs one run reads. */
const AGENT_MAX_URLS = 10;
/** Time a run may take: a search and its pages. */
const AGENT_RUN_TIMEOUT = '30 minutes';
/** Runs one list page answers. */
const LIST_PAGE = 50;
/** The model a status names without an LLM: the deterministic plan. */
const DETERMINISTIC = 'wcs-deterministic';

/**
 * Fields of Firecrawl's agent body this service does not serve, each refused by name (501)
 * rather than ignored: a client relying on one would otherwise get an answer that silently is not
 * what it asked for.
 */
const UNSERVED = {
  threadId: 'agent threads (continuing a conversation)',
  mode: 'the chat mode',
  exchange: 'the tool exchange',
  threatProtection: 'threat protection',
  auditMetadata: 'audit metadata',
} as const;

export const agentRequestSchema = z
  .strictObject({
    prompt: z.string().min(1).max(10_000).describe('What to find. Without `urls`, also the search query.'),
    urls: z.array(z.string().min(1).max(8192)).min(1).max(AGENT_MAX_URLS).optional().describe(`Pages to read (at most ${AGENT_MAX_URLS}); without them the run searches for the prompt.`),
    schema: z.record(z.string(), z.unknown()).optional().describe('JSON Schema (type object) the answer follows, filled by the structured-data engine from each page and merged.'),
    maxCredits: z.number().int().min(1).optional().describe('Hard ceiling: a step that could pass it does not run, and the run fails naming it, keeping what it found.'),
    strictConstrainToURLs: z.boolean().optional().describe(`true: a run with \`urls\` reads only those. Otherwise, without an LLM, a request that asks for a list (an array of objects in the schema; all, every, each or list in the prompt) also reads up to ${AGENT_FOLLOWED_PAGES} pages they link to on their site.`),
    model: z.enum(['spark-1-pro', 'spark-1-mini', 'spark-2']).optional().describe(`Accepted; a run uses the configured LLM, or without one the deterministic plan (status \`model\`: ${DETERMINISTIC}).`),
    effort: z.enum(['low', 'medium', 'high']).optional().describe('Accepted; the deterministic plan has one effort.'),
    ...clientTags,
    mode: z.enum(['extract', 'chat']).optional().describe('`extract` (the default) only; `chat` answers 501.'),
    threadId: z.unknown().optional().describe('Not served: 501.'),
    exchange: z.unknown().optional().describe('Not served: 501.'),
    webhook: agentWebhookSchema.optional(),
    threatProtection: z.unknown().optional().describe('Not served: 501.'),
    auditMetadata: z.unknown().optional().describe('Not served: 501.'),
  })
  .superRefine((body, ctx) => refineExtractSchema(body.schema as JsonSchema | undefined, ctx, ['schema']));

type AgentRequest = z.infer<typeof agentRequestSchema>;

function refuseUnserved(body: AgentRequest): void {
  for (const [field, feature] of Object.entries(UNSERVED)) {
    const value = body[field as keyof typeof UNSERVED];
    if (value === undefined || (field === 'mode' && value === 'extract')) continue;
    throw new AppError('NOT_IMPLEMENTED', `\`${field}\` asks for ${feature}, which this self-hosted agent does not implement`, [{ path: field, message: 'not served' }]);
  }
}

const statusOf = (job: JobRow) => (job.status === 'scraping' ? 'processing' : job.status);

const agentStatusSchema = z.object({
  success: z.literal(true),
  status: z.enum(['processing', 'completed', 'failed', 'cancelled']),
  data: z.unknown().optional().describe('With a schema, the merged answer; without, `{pages: [{url, title, markdown}]}`. Kept when the run failed or was cancelled.'),
  sources: z.union([z.record(z.string(), z.array(z.string())), z.array(z.string())]).optional().describe('With a schema, per field the pages its value came from; without, the pages read.'),
  error: z.string().optional(),
  model: z.string(),
  expiresAt: z.string(),
  creditsUsed: z.number().int(),
});

/** The trace as firecrawl-js 4.42's AgentTraceEvent: run.started, a tool call started and finished per step, run.finished. */
function traceEvents(job: JobRow) {
  const result = (job.result ?? {}) as AgentResult;
  const steps = Object.values(result.steps ?? {}).sort((a, b) => a.seq - b.seq);
  const orchestrator = { id: `${job.id}:orchestrator`, role: 'orchestrator' as const, name: 'deterministic plan' };
  let sequence = 0;
  const base = (occurredAt: string) => ({ schemaVersion: 1 as const, eventId: `${job.id}:${++sequence}`, runId: job.id, occurredAt, producerSequence: sequence, agent: orchestrator });
  const events: Record<string, unknown>[] = [{ ...base(job.createdAt.toISOString()), type: 'run.started' }];
  for (const step of steps as AgentStep[]) {
    const toolCallId = `${job.id}:step:${step.seq}`;
    events.push({ ...base(step.startedAt), type: 'tool_call.started', toolCallId, toolName: step.tool, parameters: step.parameters });
    events.push({ ...base(step.finishedAt), type: 'tool_call.finished', toolCallId, toolName: step.tool, result: step.result });
  }
  if (job.status !== 'scraping') {
    const outcome = job.status === 'completed' ? 'succeeded' : job.status === 'cancelled' ? 'cancelled' : job.errorCode === 'MAX_CREDITS_REACHED' ? 'credit_limit_reached' : 'failed';
    const code = outcome === 'cancelled' ? 'cancelled' : outcome === 'credit_limit_reached' ? 'credit_limit_reached' : 'internal';
    const error = outcome === 'succeeded' ? null : { code, source: code === 'credit_limit_reached' ? 'billing' : 'agent', retryable: false, message: job.error ?? job.status };
    events.push({ ...base((job.finishedAt ?? job.createdAt).toISOString()), type: 'run.finished', outcome, error });
  }
  return events;
}

export function registerV2AgentRoutes(routes: RouteTable, deps: ApiDeps): void {
  const { db, config, temporal } = deps;
  const model = config.llm?.model ?? DETERMINISTIC;

  const requireRun = async (ctx: RouteContext): Promise<JobRow> => {
    const job = await findJob(db, ctx.state.team.teamId, String(ctx.params.id));
    if (!job || job.kind !== 'agent') throw new AppError('NOT_FOUND', `No agent run ${ctx.params.id}`);
    if (job.expiresAt.getTime() < Date.now()) throw new AppError('NOT_FOUND', `This agent run expired at ${job.expiresAt.toISOString()}`);
    return job;
  };

  routes.add({
    method: 'post',
    path: '/v2/agent',
    tag: TAG,
    summary: 'Start an agent run',
    description:
      `Gathers structured data from the web as one durable workflow, \`agent-<id>\`: the \`urls\` given (and, for a list, up to ${AGENT_FOLLOWED_PAGES} pages of their site they link to), or the best pages a search for the prompt finds, each scraped and read by the structured-data engine into \`schema\`, merged with sources. Each page and search is charged as its own endpoint charges it. Poll GET /v2/agent/{id}.`,
    auth: true,
    body: agentRequestSchema,
    responses: {
      200: { description: 'The run started', schema: z.object({ success: z.literal(true), id: z.string() }) },
      402: { description: 'Not enough credits for the first step (INSUFFICIENT_CREDITS)' },
      403: { description: 'Not a public http(s) URL (URL_BLOCKED)' },
      501: { description: 'A field this agent does not serve (threadId, mode chat, exchange, threatProtection, auditMetadata): NOT_IMPLEMENTED naming it' },
    },
    handler: async (ctx, { body }) => {
      refuseUnserved(body);
      const team = ctx.state.team;
      const urls: { url: string; urlKey: string }[] = [];
      for (const url of body.urls ?? []) {
        const target = await checkTarget(deps.gate, url);
        const key = urlKey(target.href);
        if (!urls.some((u) => u.urlKey === key)) urls.push({ url: target.href, urlKey: key });
      }
      const schema = body.schema as JsonSchema | undefined;
      if (body.webhook) await checkTarget(deps.gate, agentWebhookOf(body.webhook).url);
      
      // With an LLM the model reads the pages' markdown and writes the answer; without, the
      // structured-data engine fills the schema from each page (the json format).
      const llm = config.llm !== undefined;
      const followLinks = !llm && urls.length > 0 && body.strictConstrainToURLs !== true && callsForList(body.prompt, schema);
      const jsonFormat = schema !== undefined && !llm;
      const options = scrapeOptionsSchema.parse({
        formats: jsonFormat ? ['markdown', 'json'] : ['markdown'],
        ...(jsonFormat && { jsonOptions: { schema } }),
      });
      await requireCredits(db, team.teamId, llm ? AGENT_LLM_TURN_CREDITS : stepCeiling(urls.length > 0 ? 'scrape' : 'search', jsonFormat), 'This agent run');
      const jobId = randomUUID();
      const request = { prompt: body.prompt, ...(body.urls && { urls: body.urls }), ...(schema && { schema }), ...(body.maxCredits !== undefined && { maxCredits: body.maxCredits }), ...(body.origin && { origin: body.origin }), ...(body.integration && { integration: body.integration }), ...(body.webhook && { webhook: agentWebhookOf(body.webhook) }) };
      await createJob(db, { id: jobId, teamId: team.teamId, kind: 'agent', url: urls[0]?.url ?? body.prompt.slice(0, 200), options: request, ttlHours: config.JOB_TTL_HOURS });
      await temporal.workflow.start(agentWorkflow, {
        taskQueue: config.taskQueues.http,
        workflowId: `agent-${jobId}`,
        priority: teamPriority(team, config.TEAM_PAGES_IN_FLIGHT),
        workflowExecutionTimeout: AGENT_RUN_TIMEOUT,
        staticSummary: `agent: ${body.prompt.slice(0, 100)}`,
        args: [
          {
            jobId,
            teamId: team.teamId,
            prompt: body.prompt,
            urls,
            ...(schema && { schema }),
            ...(body.maxCredits !== undefined && { maxCredits: body.maxCredits }),
            scrapeOptions: options,
            browserQueue: config.taskQueues.browser,
            ...(llm && { llm: { maxTokens: config.AGENT_LLM_MAX_TOKENS, maxSeconds: config.AGENT_LLM_MAX_SECONDS } }),
            ...(followLinks && { followLinks }),
          },
        ],
      });
      ctx.body = { success: true, id: jobId };
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/agent/:id',
    tag: TAG,
    summary: 'Status and answer of an agent run',
    description: 'firecrawl-js 4.42’s AgentStatusResponse, with `sources`.',
    auth: true,
    responses: { 200: { description: 'The run', schema: agentStatusSchema }, 404: { description: 'Unknown or expired run, or another team’s (NOT_FOUND)' } },
    handler: async (ctx) => {
      const job = await requireRun(ctx);
      const result = (job.result ?? {}) as AgentResult;
      ctx.body = {
        success: true,
        status: statusOf(job),
        ...(result.data !== undefined && { data: result.data }),
        ...(result.sources !== undefined && { sources: result.sources }),
        ...(job.error && { error: job.error }),
        model,
        expiresAt: job.expiresAt.toISOString(),
        creditsUsed: result.creditsUsed ?? 0,
      };
    },
  });

  routes.add({
    method: 'delete',
    path: '/v2/agent/:id',
    tag: TAG,
    summary: 'Cancel an agent run',
    description: 'Stops the run; what it had found stays readable. A run that already ended keeps its status.',
    auth: true,
    responses: { 200: { description: 'Cancelled', schema: z.object({ success: z.literal(true), status: z.string() }) }, 404: { description: 'Unknown run (NOT_FOUND)' } },
    handler: async (ctx) => {
      const job = await requireRun(ctx);
      if (job.status === 'scraping') {
        await cancelAgentRun(db, job.id);
        await temporal.workflow
          .getHandle(`agent-${job.id}`)
          .cancel()
          .catch(() => undefined);
      }
      ctx.body = { success: true, status: job.status === 'scraping' ? 'cancelled' : statusOf(job) };
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/agent/:id/trace',
    tag: TAG,
    summary: 'The steps an agent run took',
    description: 'firecrawl-js 4.42’s AgentTraceResponse: run.started, each step (plan, llm, search, scrape, links, extract, finish) as a tool call started and finished with its parameters and result, run.finished. `liveView` has no browser sessions to show.',
    auth: true,
    query: z.object({ liveView: z.enum(['true', 'false']).optional() }),
    responses: { 200: { description: 'The trace', schema: z.object({ success: z.literal(true), id: z.string(), events: z.array(z.record(z.string(), z.unknown())), creditsUsed: z.number().int() }) } },
    handler: async (ctx) => {
      const job = await requireRun(ctx);
      ctx.body = { success: true, id: job.id, events: traceEvents(job), creditsUsed: ((job.result ?? {}) as AgentResult).creditsUsed ?? 0 };
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/agent',
    tag: TAG,
    summary: 'List agent runs',
    description: `The team's runs, most recent first, ${LIST_PAGE} a page; \`next\` continues before the last one.`,
    auth: true,
    query: z.object({ before: z.coerce.number().int().min(0).optional().describe('Only runs created before this epoch millisecond.') }),
    responses: { 200: { description: 'The runs', schema: z.object({ success: z.literal(true), agents: z.array(z.record(z.string(), z.unknown())), next: z.string().optional() }) } },
    handler: async (ctx, { query }) => {
      const rows = await listAgentRuns(db, ctx.state.team.teamId, LIST_PAGE + 1, query.before);
      const page = rows.slice(0, LIST_PAGE);
      const agents = page.map((row) => {
        const options = row.options as { prompt: string; urls?: string[]; schema?: unknown; origin?: string; integration?: string };
        return {
          id: row.id,
          createdAt: row.createdAt.toISOString(),
          targetHint: row.url ?? '',
          origin: options.origin ?? 'api',
          ...(options.integration && { integration: options.integration }),
          settings: { hidden: false, starred: false },
          status: row.status === 'scraping' ? 'processing' : row.status,
          options: { prompt: options.prompt, ...(options.urls && { urls: options.urls }), ...(options.schema !== undefined && { schema: options.schema }), model },
        };
      });
      const last = page[page.length - 1];
      const next = rows.length > LIST_PAGE && last ? `${ctx.origin}/v2/agent?before=${last.createdAt.getTime()}` : undefined;
      ctx.body = { success: true, agents, ...(next && { next }) };
    },
  });
}
