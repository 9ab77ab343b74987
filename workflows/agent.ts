import { ApplicationFailure, CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { AgentActivities } from '../activities/agent';
import { AGENT_LLM_TURN_CREDITS, AGENT_LLM_TURNS } from '../src/agent/agent-llm';
import { ceilingMessage, stepCeiling, type AgentRunInput, type AgentStep } from '../src/agent/agent-run';
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
 * `agent-<jobId>`. Without an LLM, a deterministic plan: the request's URLs, or the best pages a
 * search for the prompt finds, each scraped (with the json format and the schema when one is
 * given, which the structured-data engine fills), then the pages' results merged. With one, a
 * bounded tool loop: each turn the model picks a search, a page or its answer, which must follow
 * the schema. Every step is an activity with its own charge key, and a step runs only if its
 * most possible cost still fits under `maxCredits`. The trace is the steps recorded on the job
 * row; history carries ids and counts.
 */
export async function agentWorkflow(input: AgentRunInput): Promise<{ creditsUsed: number }> {
  const { jobId, teamId } = input;
  const acts = pageActivities(input.scrapeOptions.timeout, input.browserQueue, { httpAsActivity: true });
  const jsonFormat = input.scrapeOptions.formats.includes('json');
  let seq = 0;
  let spent = 0;
  const pageIds: string[] = [];
  const failures: Stop[] = [];
  const record = (key: string, step: Omit<AgentStep, 'finishedAt'>) => agent.recordAgentStep({ jobId, key, step: { ...step, finishedAt: new Date().toISOString() } });
  const fits = (cost: number) => input.maxCredits === undefined || spent + cost <= input.maxCredits;
  const ceiling = (next: string, cost: number): Stop => ({ code: 'MAX_CREDITS_REACHED', message: ceilingMessage(input.maxCredits!, spent, next, cost) });
  const finish = (status: 'completed' | 'failed' | 'cancelled', error?: Stop, answer?: unknown) =>
    agent.finishAgentRun({ jobId, status, pageIds, ...(input.schema && { schema: input.schema }), creditsUsed: spent, ...(error && { error }), ...(answer !== undefined && { answer }) });

  const notify = (event: 'started' | 'completed' | 'failed' | 'cancelled') => hooks.notifyAgentWebhook({ jobId, event }).catch(() => undefined);

  /** Scrapes one page (and fills the schema from it with the json format); a failure is recorded, not thrown. */
  async function readPage(target: Target): Promise<void> {
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
    } catch (err) {
      if (isCancellation(err)) throw err;
      const failure = describeFailure(err);
      failures.push({ code: failure.code, message: `${target.url}: ${failure.message}` });
      await record(`page:${target.urlKey}`, { seq: stepSeq, tool: 'scrape', parameters, result: { error: failure }, startedAt });
    }
  }

  /** The deterministic plan: the URLs or a search's best pages, as many as fit under the ceiling. */
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
    const pageCost = stepCeiling('scrape', jsonFormat);
    const affordable = input.maxCredits === undefined ? targets.length : Math.max(0, Math.floor((input.maxCredits - spent) / pageCost));
    await Promise.all(targets.slice(0, affordable).map(readPage));
    if (affordable < targets.length) return ceiling(`reading ${targets[affordable]!.url}`, pageCost);
    if (pageIds.length === 0 && failures.length > 0) return { code: failures[0]!.code, message: `None of the ${failures.length} page(s) could be read; ${failures[0]!.message}` };
    return undefined;
  }

  /** The model's loop: a search, a page or the answer per turn, at most AGENT_LLM_TURNS turns. */
  async function modelLoop(): Promise<{ stop?: Stop; answer?: unknown }> {
    for (let turn = 1; turn <= AGENT_LLM_TURNS; turn++) {
      if (!fits(AGENT_LLM_TURN_CREDITS)) return { stop: ceiling('the next model turn', AGENT_LLM_TURN_CREDITS) };
      const decision = await model.agentLlmTurn({ jobId, teamId, seq: ++seq, turn, prompt: input.prompt, ...(input.schema && { schema: input.schema }) });
      spent += decision.credits;
      if (decision.action === 'finish') return { answer: decision.data };
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
    const plan = input.llm ? { model: `up to ${AGENT_LLM_TURNS} turns` } : input.urls.length > 0 ? { read: input.urls.map((t) => t.url) } : { search: input.prompt };
    await record('plan', { seq: ++seq, tool: 'plan', parameters: { prompt: input.prompt, urls: input.urls.map((t) => t.url), schema: input.schema !== undefined, maxCredits: input.maxCredits ?? null }, result: plan, startedAt: new Date().toISOString() });
    await notify('started');
    if (input.llm) {
      // The model starts from the request's pages, when it gave some.
      await Promise.all(input.urls.slice(0, input.maxCredits === undefined ? undefined : Math.floor(input.maxCredits / stepCeiling('scrape', jsonFormat))).map(readPage));
    }
    const { stop, answer } = input.llm ? await modelLoop() : { stop: await planned(), answer: undefined };
    await record('finish', { seq: ++seq, tool: 'finish', parameters: { pages: pageIds.length }, result: stop ? { error: stop } : { creditsUsed: spent }, startedAt: new Date().toISOString() });
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
