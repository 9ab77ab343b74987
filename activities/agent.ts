import { ApplicationFailure, Context } from '@temporalio/activity';
import { inArray } from 'drizzle-orm';
import { AGENT_LLM_TURN_CREDITS, agentMessages, DECISION_SCHEMA, parseDecision, TIME_BUDGET_REACHED, timeBudgetMessage, type AgentDecision, type Observation } from '../src/agent/agent-llm';
import { AGENT_FOLLOWED_PAGES, pickLinks, relevanceWords, type FollowedLink } from '../src/agent/agent-links';
import { answerSources } from '../src/agent/answer-sources';
import { AGENT_SEARCH_RESULTS, type AgentStep } from '../src/agent/agent-run';
import { endAgentRun, findAgentStep, listAgentSteps, recordAgentStep } from '../src/agent/agent-store';
import { charge } from '../src/credits/ledger';
import { PRICES } from '../src/credits/pricing';
import type { Db } from '../src/db/client';
import { pages } from '../src/db/schema';
import { mergeResults } from '../src/extract/merge-results';
import { sourcesByField } from '../src/extract/sources-by-field';
import { findPageExtractions, type PageExtractionRow } from '../src/jobs/extraction-store';
import type { JsonSchema } from '../src/json-schema/json-schema';
import type { LlmClient } from '../src/extract/llm/llm-client';
import { compileSchema } from '../src/json-schema/schema-validator';
import type { PublicUrlGate } from '../src/net/public-url-gate';
import type { GuardedFetcher } from '../src/net/guarded-fetcher';
import { deliverAgentWebhook, type AgentWebhookEvent } from '../src/agent/agent-webhook';
import { AppError } from '../src/errors';
import type { ProviderChain } from '../src/search/providers/provider-chain';
import { distinctHits } from '../src/search/search-candidates';
import { urlKey } from '../src/url/normalize-url';
import { withAppFailures } from './app-failure';
import { admittedBy } from './search';

export interface AgentActivityDeps {
  db: Db;
  providers: ProviderChain;
  gate: PublicUrlGate;
  fetcher: GuardedFetcher;
  /** Present when this worker has an LLM configured. */
  llm?: LlmClient;
}

/** Time the search step gives the provider chain. */
const SEARCH_BUDGET_MS = 20_000;

export interface AgentSearchInput {
  jobId: string;
  teamId: string;
  seq: number;
  query: string;
  /** The step's name in the run (and of its charge): `search`, or `search:<turn>` in the model's loop. */
  key: string;
}

export interface AgentTurnInput {
  jobId: string;
  teamId: string;
  seq: number;
  turn: number;
  prompt: string;
  schema?: JsonSchema;
  /** When the run's time budget ends (epoch ms): the turn is cut off then, unrecorded and uncharged. */
  deadline: number;
  maxSeconds: number;
}

export interface AgentLinksInput {
  jobId: string;
  seq: number;
  prompt: string;
  schema?: JsonSchema;
  /** The pages read, whose links are followed. */
  pageIds: string[];
  /** URL keys of the pages the run read or tried: never followed again. */
  read: string[];
}

export interface AgentExtractInput {
  jobId: string;
  seq: number;
  /** Stored pages, in the order they were read. */
  pageIds: string[];
  schema?: JsonSchema;
  /** The model's answer (already checked against the schema); absent, the pages' extractions are merged. */
  answer?: unknown;
}

/** What the extract step found: the answer and, per field, the pages that show its value. */
export interface AgentExtraction {
  data: unknown;
  sources: Record<string, string[]>;
}

export interface AgentSearchResult {
  pages: { url: string; urlKey: string }[];
  provider: string;
  credits: number;
}

export interface FinishAgentInput {
  jobId: string;
  status: 'completed' | 'failed' | 'cancelled';
  /** Stored pages, in the order they were read. */
  pageIds: string[];
  schema?: JsonSchema;
  creditsUsed: number;
  error?: { code: string; message: string };
}

/** The agent's own steps (a scrape and its extraction are the page activities every job uses). Each is idempotent. */
export function createAgentActivities(deps: AgentActivityDeps) {
  /** The run's steps as the model sees them: searches, pages read, its own choices. */
  async function observations(jobId: string): Promise<Observation[]> {
    const steps = await listAgentSteps(deps.db, jobId);
    const pageIds = steps.flatMap((s) => (s.tool === 'scrape' && (s.result as { pageId?: string }).pageId ? [(s.result as { pageId: string }).pageId] : []));
    const stored = pageIds.length ? await deps.db.select({ id: pages.id, url: pages.url, markdown: pages.markdown }).from(pages).where(inArray(pages.id, pageIds)) : [];
    return steps.flatMap((s): Observation[] => {
      if (s.tool === 'llm') return [{ kind: 'decision', decision: s.result as AgentDecision }];
      if (s.tool === 'search') return [{ kind: 'search', query: String(s.parameters.query), urls: (s.result as AgentSearchResult).pages.map((p) => p.url) }];
      const page = s.tool === 'scrape' ? stored.find((p) => p.id === (s.result as { pageId?: string }).pageId) : undefined;
      return page ? [{ kind: 'page', url: page.url, markdown: page.markdown ?? '' }] : [];
    });
  }

  /** Stored pages by id, in the order given. */
  async function storedPages(pageIds: string[]) {
    const stored = pageIds.length
      ? await deps.db.select({ id: pages.id, url: pages.url, markdown: pages.markdown, metadata: pages.metadata, links: pages.links }).from(pages).where(inArray(pages.id, pageIds))
      : [];
    return pageIds.map((id) => stored.find((p) => p.id === id)).filter((p): p is (typeof stored)[number] => !!p);
  }

  return {
    /** Sends one event of the run to its webhook, if it asked for it. */
    async notifyAgentWebhook(input: { jobId: string; event: AgentWebhookEvent }): Promise<void> {
      await withAppFailures(() => deliverAgentWebhook(deps.db, deps.fetcher, input.jobId, input.event));
    },

    /** Records one step of the trace under its key, once. */
    async recordAgentStep(input: { jobId: string; key: string; step: AgentStep }): Promise<void> {
      await recordAgentStep(deps.db, input.jobId, input.key, input.step);
    },

    /**
     * Searches the configured providers (the local index among them) for the prompt and keeps the
     * best few pages. The hits and the charge (a search result's price each, as a search without
     * scraping charges) are stored once: a retry answers what the first attempt found.
     */
    async searchForAgent(input: AgentSearchInput): Promise<AgentSearchResult> {
      return withAppFailures(async () => {
        const { key } = input;
        const done = await findAgentStep(deps.db, input.jobId, key);
        if (done) return done.result as AgentSearchResult;
        const startedAt = new Date().toISOString();
        const answer = await deps.providers.search(
          { query: input.query, candidates: AGENT_SEARCH_RESULTS * 2, lang: 'en', country: 'us' },
          Date.now() + SEARCH_BUDGET_MS,
          Context.current().cancellationSignal,
        );
        const found = distinctHits(answer.hits, admittedBy(deps.gate)).slice(0, AGENT_SEARCH_RESULTS);
        const result: AgentSearchResult = {
          pages: found.map((h) => ({ url: h.url, urlKey: h.urlKey })),
          provider: answer.provider,
          credits: PRICES.searchResult * found.length,
        };
        const step: AgentStep = { seq: input.seq, tool: 'search', parameters: { query: input.query }, result, startedAt, finishedAt: new Date().toISOString() };
        // The step and its charge commit together: a retry finds the step and answers it, uncharged.
        await deps.db.transaction(async (tx) => {
          if (await recordAgentStep(tx, input.jobId, key, step)) {
            await charge(tx, { teamId: input.teamId, amount: result.credits, operation: 'agent', jobId: input.jobId, idempotencyKey: `agent:${input.jobId}:${key}` });
          }
        });
        return ((await findAgentStep(deps.db, input.jobId, key)) ?? step).result as AgentSearchResult;
      });
    },

    /**
     * One turn of the model's loop: it sees the request and every step so far (search results,
     * pages' markdown, its earlier choices) and picks the next. An answer that does not follow the
     * schema is refused here, never returned as data: the next turn shows the model why. The turn
     * and its charge are recorded together, so a retry answers the same choice, uncharged.
     */
    async agentLlmTurn(input: AgentTurnInput): Promise<AgentDecision & { credits: number; tokens: number }> {
      return withAppFailures(async () => {
        const key = `llm:${input.turn}`;
        const done = await findAgentStep(deps.db, input.jobId, key);
        if (done) return { ...(done.result as AgentDecision), credits: AGENT_LLM_TURN_CREDITS, tokens: Number(done.parameters.tokens ?? 0) };
        if (!deps.llm) throw new AppError('LLM_NOT_CONFIGURED', 'This worker has no LLM configured (LLM_BASE_URL, LLM_MODEL), and the run was planned for one', undefined, { permanent: true });
        const llm = deps.llm;
        const startedAt = new Date().toISOString();
        // A turn still thinking when the run's time is up is cut off: nothing recorded, nothing charged.
        const outOfTime = () => ApplicationFailure.create({ type: TIME_BUDGET_REACHED, message: timeBudgetMessage(input.maxSeconds), nonRetryable: true });
        if (Date.now() >= input.deadline) throw outOfTime();
        const timeUp = AbortSignal.timeout(input.deadline - Date.now());
        const messages = agentMessages(input.prompt, input.schema, await observations(input.jobId));
        const reply = await llm.json(messages, { name: 'agent_step', schema: DECISION_SCHEMA }, AbortSignal.any([Context.current().cancellationSignal, timeUp])).catch((err: unknown) => {
          throw timeUp.aborted ? outOfTime() : err;
        });
        let decision = parseDecision(reply.content);
        if (decision.action === 'scrape') {
          try {
            decision = { ...decision, urlKey: urlKey(deps.gate.parse(decision.url).href) };
          } catch (err) {
            decision = { action: 'invalid', error: `${decision.url} cannot be read: ${(err as Error).message}` };
          }
        }
        if (decision.action === 'finish' && input.schema) {
          const validate = compileSchema(input.schema);
          if (!validate(decision.data)) decision = { action: 'invalid', error: `the data does not follow the schema: ${(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}` };
        }
        const step: AgentStep = { seq: input.seq, tool: 'llm', parameters: { turn: input.turn, tokens: reply.tokens }, result: decision, startedAt, finishedAt: new Date().toISOString() };
        await deps.db.transaction(async (tx) => {
          if (await recordAgentStep(tx, input.jobId, key, step)) {
            await charge(tx, { teamId: input.teamId, amount: AGENT_LLM_TURN_CREDITS, operation: 'agent', jobId: input.jobId, idempotencyKey: `agent:${input.jobId}:${key}` });
          }
        });
        const stored = (await findAgentStep(deps.db, input.jobId, key)) ?? step;
        return { ...(stored.result as AgentDecision), credits: AGENT_LLM_TURN_CREDITS, tokens: Number(stored.parameters.tokens ?? 0) };
      });
    },

    /**
     * The pages worth reading next: links from the pages read to other pages of their site, scored
     * by the prompt's and the schema's words (agent-links.ts), at most AGENT_FOLLOWED_PAGES. Reads
     * stored pages only, so it charges nothing; recorded once, a retry answers the same links.
     */
    async pickAgentLinks(input: AgentLinksInput): Promise<FollowedLink[]> {
      return withAppFailures(async () => {
        const done = await findAgentStep(deps.db, input.jobId, 'links');
        if (done) return (done.result as { pages: FollowedLink[] }).pages;
        const startedAt = new Date().toISOString();
        const from = await storedPages(input.pageIds);
        const words = relevanceWords(input.prompt, input.schema);
        const admitted = pickLinks(from, words, new Set(input.read), Number.POSITIVE_INFINITY).filter((l) => {
          try {
            deps.gate.parse(l.url);
            return true;
          } catch {
            return false;
          }
        });
        const step: AgentStep = {
          seq: input.seq,
          tool: 'links',
          parameters: { from: from.map((p) => p.url), words: [...words], limit: AGENT_FOLLOWED_PAGES },
          result: { pages: admitted.slice(0, AGENT_FOLLOWED_PAGES) },
          startedAt,
          finishedAt: new Date().toISOString(),
        };
        await recordAgentStep(deps.db, input.jobId, 'links', step);
        // An attempt that recorded first wins: answer what was recorded.
        return (((await findAgentStep(deps.db, input.jobId, 'links')) ?? step).result as { pages: FollowedLink[] }).pages;
      });
    },

    /**
     * Fills the schema, as its own step: without an LLM, the pages' extractions merged (arrays
     * concatenated, scalars by confidence) with each field's pages from the notes; with one, the
     * model's answer with each field's pages found by its value in the pages read. Charges nothing
     * (the pages' reading was charged with them); recorded once.
     */
    async extractAgentData(input: AgentExtractInput): Promise<void> {
      return withAppFailures(async () => {
        if (await findAgentStep(deps.db, input.jobId, 'extract')) return;
        const startedAt = new Date().toISOString();
        const read = await storedPages(input.pageIds);
        let found: AgentExtraction = { data: null, sources: {} };
        if (input.answer !== undefined) {
          found = { data: input.answer, sources: answerSources(input.answer, read.map((p) => ({ url: p.url, markdown: p.markdown ?? '' }))) };
        } else if (input.schema) {
          const rows = await findPageExtractions(deps.db, input.pageIds);
          const parts = read
            .map((p) => ({ page: p, row: rows.find((r) => r.pageId === p.id) }))
            .filter((x): x is { page: (typeof read)[number]; row: PageExtractionRow } => !!x.row)
            .map(({ page, row }) => ({ result: { data: row.data, notes: row.notes, llmTokens: row.llmTokens }, url: page.url, label: page.url }));
          if (parts.length > 0) {
            const merged = mergeResults(parts, input.schema);
            found = { data: merged.data, sources: sourcesByField(merged.notes) };
          }
        }
        const parameters = { pages: read.map((p) => p.url), from: input.answer !== undefined ? 'the model’s answer' : 'the pages’ structured data' };
        await recordAgentStep(deps.db, input.jobId, 'extract', { seq: input.seq, tool: 'extract', parameters, result: found, startedAt, finishedAt: new Date().toISOString() });
      });
    },

    /**
     * Ends the run with what it found: the extract step's data and sources when it ran; without a
     * schema or an answer, each page's main content with its URL.
     */
    async finishAgentRun(input: FinishAgentInput): Promise<void> {
      return withAppFailures(async () => {
        const read = await storedPages(input.pageIds);
        const extracted = (await findAgentStep(deps.db, input.jobId, 'extract'))?.result as AgentExtraction | undefined;
        let data: unknown = null;
        let sources: Record<string, string[]> | string[] = read.map((p) => p.url);
        if (extracted) {
          data = extracted.data;
          sources = extracted.sources;
        } else if (!input.schema && read.length > 0) {
          data = { pages: read.map((p) => ({ url: p.url, title: p.metadata?.title ?? null, markdown: p.markdown ?? '' })) };
        }
        await endAgentRun(deps.db, input.jobId, { status: input.status, data, sources, creditsUsed: input.creditsUsed, ...(input.error && { error: input.error }) });
      });
    },
  };
}

export type AgentActivities = ReturnType<typeof createAgentActivities>;
