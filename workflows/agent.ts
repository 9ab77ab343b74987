import { ActivityFailure, ApplicationFailure, CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { AgentActivities } from '../activities/agent';
import { AGENT_LLM_TURN_CREDITS, AGENT_LLM_TURNS, TIME_BUDGET_REACHED, timeBudgetMessage, TOKEN_BUDGET_REACHED, tokenBudgetMessage } from '../src/agent/agent-llm';
import { AGENT_FOLLOWED_PAGES } from '../src/agent/agent-links';
import { ceilingMessage, stepCeiling, type AgentLlmBudget, type AgentRunInput, type AgentStep } from '../src/agent/agent-run';
import type { PageTask } from '../src/jobs/page-task';
import { describeFailure, pageActivities, scrapePage } from './page-activities';

export type { AgentRunInput };

const agent = proxyActivities<AgentActivities>({ startToCloseTimeout: '1 minute', retry: { initialInterval: '1s', maximumAttempts: 5 } });
// A model turn may think for minutes on a long page.
// A receiver that keeps failing is given up on after these tries; the run does not wait on it.
const hooks = proxyActivities<AgentActivities>({ startToCloseTimeout: '30s', retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 6 } });
const model = proxyActivities<AgentActivities>({ startToCloseTimeout: '10 minutes', retry: { initialInterval: '1s', maximumAttempts: 3 } });

interface Stop {
  code: string;
  message: string;
}

type Target = { url: string; urlKey: string };

/**
 * `agent-<jobId>`. Without an LLM, a deterministic plan: the request's URLs (and, when it asks
 * for a list, up to AGENT_FOLLOWED_PAGES pages they link to on their site), or the best pages a
 * search for the prompt finds, each scraped (with the json format and the schema when one is
 * given, which the structured-data engine fills), then the pages' results merged by the extract
 * step. With one, a tool loop bounded in turns, tokens and time: each turn the model picks a
 * search, a page or its answer, which must follow the schema; the extract step finds each
 * field's pages. Every step is an activity with its own charge key, and a step runs only if its
 * most possible cost still fits under `maxCredits`. The trace is the steps recorded on the job
 * row; history carries ids and counts.
 */
export async function agentWorkflow(input: AgentRunInput): Promise<{ creditsUsed: number }> {
  const { jobId, teamId } = input;
  // Workflow time: the same on replay. The model's loop must end by this.
  const deadline = Date.now() + (input.llm?.maxSeconds ?? 0) * 1000;
  const acts = pageActivities(input.scrapeOptions.timeout, input.browserQueue, { httpAsActivity: true });
  const jsonFormat = input.scrapeOptions.formats.includes('json');
  let seq = 0;
  let spent = 0;
  const pageIds: string[] = [];
  const failures: Stop[] = [];
  const record = (key: string, step: Omit<AgentStep, 'finishedAt'>) => agent.recordAgentStep({ jobId, key, step: { ...step, finishedAt: new Date().toISOString() } });
  const fits = (cost: number) => input.maxCredits === undefined || spent + cost <= input.maxCredits;
  const ceiling = (next: string, cost: number): Stop => ({ code: 'MAX_CREDITS_REACHED', message: ceilingMessage(input.maxCredits!, spent, next, cost) });
  /** Fills the schema from what was found (its own step), then ends the run with it. */
  async function finish(status: 'completed' | 'failed' | 'cancelled', error?: Stop, answer?: unknown): Promise<void> {
    // The model's pages carry no extraction to merge: with an LLM, only an answer is filled in.
    if (answer !== undefined || (!input.llm && input.schema && pageIds.length > 0)) {
      await agent.extractAgentData({ jobId, seq: ++seq, pageIds, ...(input.schema && { schema: input.schema }), ...(answer !== undefined && { answer }) });
    }
    await record('finish', { seq: ++seq, tool: 'finish', parameters: { pages: pageIds.length }, result: error ? { error } : { creditsUsed: spent }, startedAt: new Date().toISOString() });
    await agent.finishAgentRun({ jobId, status, pageIds, ...(input.schema && { schema: input.schema }), creditsUsed: spent, ...(error && { error }) });
  }

  const notify = (event: 'started' | 'completed' | 'failed' | 'cancelled') => hooks.notifyAgentWebhook({ jobId, event }).catch(() => undefined);

  /** Scrapes one page (and fills the schema from it with the json format); a failure is recorded, not thrown. */
  /** Scrapes one page and keeps it in `pageIds`; its id, undefined when it failed (recorded in `failures`). */
  async function readPage(target: Target): Promise<string | undefined> {
    const stepSeq = ++seq;
    const startedAt = new Date().toISOString();
    const task: PageTask = {
      jobId,
      teamId,
      url: target.url,
      urlKey: target.urlKey,
      depth: 0,
      options: input.scrapeOptions,
      // Room for one retry after a lost worker (see pageActivities' httpAsActivity).
      deadline: Date.now() + input.scrapeOptions.timeout * 2 + 10_000,
      operation: 'agent',
      chargeKey: `agent:${jobId}:page:${target.urlKey}`,
      finishJob: false,
    };
    const parameters = { url: target.url, formats: input.scrapeOptions.formats };
    try {
      const stored = await scrapePage(task, acts);
      pageIds.push(stored.pageId);
      spent += stored.credits;
      await record(`page:${target.urlKey}`, { seq: stepSeq, tool: 'scrape', parameters, result: { pageId: stored.pageId, statusCode: stored.statusCode, credits: stored.credits }, startedAt });
      return stored.pageId;
    } catch (err) {
      if (isCancellation(err)) throw err;
      const failure = describeFailure(err);
      failures.push({ code: failure.code, message: `${target.url}: ${failure.message}` });
      await record(`page:${target.urlKey}`, { seq: stepSeq, tool: 'scrape', parameters, result: { error: failure }, startedAt });
      return undefined;
    }
  }

  /** Reads the pages, as many as fit under the ceiling; the first that does not is the stop. */
  async function readWithin(targets: readonly Target[]): Promise<Stop | undefined> {
    const pageCost = stepCeiling('scrape', jsonFormat);
    const affordable = input.maxCredits === undefined ? targets.length : Math.max(0, Math.floor((input.maxCredits - spent) / pageCost));
    const before = pageIds.length;
    const read = await Promise.all(targets.slice(0, affordable).map(readPage));
    // In the targets' order (the request's, or the search's rank), not the order they finished
    // in: where pages disagree on a field, the merge keeps the first page's value.
    pageIds.splice(before, pageIds.length - before, ...read.filter((id): id is string => id !== undefined));
    return affordable < targets.length ? ceiling(`reading ${targets[affordable]!.url}`, pageCost) : undefined;
  }

  /** The deterministic plan: the URLs (and the pages they link to, for a list) or a search's best pages, as many as fit under the ceiling. */
  async function planned(): Promise<Stop | undefined> {
    let targets = input.urls;
    if (targets.length === 0) {
      const cost = stepCeiling('search', jsonFormat);
      if (!fits(cost)) return ceiling('the search', cost);
      const found = await agent.searchForAgent({ jobId, teamId, seq: ++seq, query: input.prompt, key: 'search' });
      spent += found.credits;
      targets = found.pages;
      if (targets.length === 0) return { code: 'AGENT_NOTHING_FOUND', message: `The search for the prompt (${found.provider}) found no page to read` };
    }
    const stop = await readWithin(targets);
    if (stop) return stop;
    if (input.followLinks && pageIds.length > 0) {
      const links = await agent.pickAgentLinks({ jobId, seq: ++seq, prompt: input.prompt, ...(input.schema && { schema: input.schema }), pageIds: [...pageIds], read: targets.map((t) => t.urlKey) });
      const more = await readWithin(links);
      if (more) return more;
    }
    if (pageIds.length === 0 && failures.length > 0) return { code: failures[0]!.code, message: `None of the ${failures.length} page(s) could be read; ${failures[0]!.message}` };
    return undefined;
  }

  /**
   * The model's loop: a search, a page or the answer per turn, at most AGENT_LLM_TURNS turns, while
   * the tokens its turns used stay under the token budget and the time since the run started under
   * the time budget (a turn in flight at the deadline is cut off).
   */
  async function modelLoop(budget: AgentLlmBudget): Promise<{ stop?: Stop; answer?: unknown }> {
    let tokens = 0;
    const outOfTime = (): Stop => ({ code: TIME_BUDGET_REACHED, message: timeBudgetMessage(budget.maxSeconds) });
    for (let turn = 1; turn <= AGENT_LLM_TURNS; turn++) {
      if (!fits(AGENT_LLM_TURN_CREDITS)) return { stop: ceiling('the next model turn', AGENT_LLM_TURN_CREDITS) };
      if (tokens >= budget.maxTokens) return { stop: { code: TOKEN_BUDGET_REACHED, message: tokenBudgetMessage(budget.maxTokens, tokens) } };
      if (Date.now() >= deadline) return { stop: outOfTime() };
      let decision;
      try {
        decision = await model.agentLlmTurn({ jobId, teamId, seq: ++seq, turn, prompt: input.prompt, ...(input.schema && { schema: input.schema }), deadline, maxSeconds: budget.maxSeconds });
      } catch (err) {
        if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type === TIME_BUDGET_REACHED) return { stop: outOfTime() };
        throw err;
      }
      spent += decision.credits;
      tokens += decision.tokens;
      if (decision.action === 'finish') return { answer: decision.data };
      if (Date.now() >= deadline) return { stop: outOfTime() };
      if (decision.action === 'search') {
        const cost = stepCeiling('search', false);
        if (!fits(cost)) return { stop: ceiling('the search', cost) };
        const found = await agent.searchForAgent({ jobId, teamId, seq: ++seq, query: decision.query, key: `search:${turn}` });
        spent += found.credits;
      } else if (decision.action === 'scrape' && decision.urlKey) {
        const cost = stepCeiling('scrape', jsonFormat);
        if (!fits(cost)) return { stop: ceiling(`reading ${decision.url}`, cost) };
        await readPage({ url: decision.url, urlKey: decision.urlKey });
      }
    }
    return { stop: { code: 'AGENT_TURNS_EXHAUSTED', message: `The model gave no valid answer within ${AGENT_LLM_TURNS} turns` } };
  }

  try {
    const plan = input.llm
      ? { model: `up to ${AGENT_LLM_TURNS} turns, ${input.llm.maxTokens} tokens, ${input.llm.maxSeconds} s` }
      : input.urls.length > 0
        ? { read: input.urls.map((t) => t.url), ...(input.followLinks && { follow: `up to ${AGENT_FOLLOWED_PAGES} linked pages of the same site, one hop` }) }
        : { search: input.prompt };
    await record('plan', { seq: ++seq, tool: 'plan', parameters: { prompt: input.prompt, urls: input.urls.map((t) => t.url), schema: input.schema !== undefined, maxCredits: input.maxCredits ?? null }, result: plan, startedAt: new Date().toISOString() });
    await notify('started');
    let outcome: { stop?: Stop | undefined; answer?: unknown };
    if (input.llm) {
      // The model starts from the request's pages, when it gave some.
      const stop = await readWithin(input.urls);
      outcome = stop ? { stop } : await modelLoop(input.llm);
    } else {
      outcome = { stop: await planned() };
    }
    const { stop, answer } = outcome;
    await finish(stop ? 'failed' : 'completed', stop, answer);
    await notify(stop ? 'failed' : 'completed');
    if (stop) throw ApplicationFailure.create({ type: stop.code, message: stop.message, nonRetryable: true });
    return { creditsUsed: spent };
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(async () => {
        await finish('cancelled', { code: 'CANCELLED', message: 'The agent run was cancelled' });
        await notify('cancelled');
      });
      throw err;
    }
    if (err instanceof ApplicationFailure && err.nonRetryable) throw err;
    const failure = describeFailure(err);
    await finish('failed', { code: failure.code, message: failure.message });
    await notify('failed');
    throw ApplicationFailure.create({ type: failure.code, message: failure.message, nonRetryable: true });
  }
}
