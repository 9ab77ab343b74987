import { ApplicationFailure, CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { AgentActivities } from '../activities/agent';
import { ceilingMessage, stepCeiling, type AgentRunInput, type AgentStep } from '../src/agent/agent-run';
import type { PageTask } from '../src/jobs/page-task';
import { describeFailure, pageActivities, scrapePage } from './page-activities';

export type { AgentRunInput };

const agent = proxyActivities<AgentActivities>({ startToCloseTimeout: '1 minute', retry: { initialInterval: '1s', maximumAttempts: 5 } });

interface Stop {
  code: string;
  message: string;
}

/**
 * `agent-<jobId>`, the deterministic plan (no LLM): the request's URLs, or the best pages a
 * search for the prompt finds, each scraped (with the json format and the schema when one is
 * given, which the structured-data engine fills); then the pages' results merged. Every step is
 * an activity with its own charge key, and a step runs only if its most possible cost still fits
 * under `maxCredits`. The trace is the steps recorded on the job row; history carries ids and counts.
 */
export async function agentWorkflow(input: AgentRunInput): Promise<{ creditsUsed: number }> {
  const { jobId, teamId } = input;
  const acts = pageActivities(input.scrapeOptions.timeout, input.browserQueue, { httpAsActivity: true });
  const withSchema = input.schema !== undefined;
  let seq = 0;
  let spent = 0;
  const pageIds: string[] = [];
  const record = (key: string, step: Omit<AgentStep, 'finishedAt'>) => agent.recordAgentStep({ jobId, key, step: { ...step, finishedAt: new Date().toISOString() } });
  const fits = (cost: number) => input.maxCredits === undefined || spent + cost <= input.maxCredits;
  const finish = (status: 'completed' | 'failed' | 'cancelled', error?: Stop) =>
    agent.finishAgentRun({ jobId, status, pageIds, ...(input.schema && { schema: input.schema }), creditsUsed: spent, ...(error && { error }) });

  try {
    let stop: Stop | undefined;
    let targets = input.urls;
    const plan = targets.length > 0 ? { read: targets.map((t) => t.url) } : { search: input.prompt };
    await record('plan', { seq: ++seq, tool: 'plan', parameters: { prompt: input.prompt, urls: targets.map((t) => t.url), schema: withSchema, maxCredits: input.maxCredits ?? null }, result: plan, startedAt: new Date().toISOString() });

    if (targets.length === 0) {
      const cost = stepCeiling('search', withSchema);
      if (fits(cost)) {
        const found = await agent.searchForAgent({ jobId, teamId, seq: ++seq, query: input.prompt });
        spent += found.credits;
        targets = found.pages;
        if (targets.length === 0) stop = { code: 'AGENT_NOTHING_FOUND', message: `The search for the prompt (${found.provider}) found no page to read` };
      } else {
        stop = { code: 'MAX_CREDITS_REACHED', message: ceilingMessage(input.maxCredits!, spent, 'the search', cost) };
      }
    }

    const pageCost = stepCeiling('scrape', withSchema);
    const affordable = input.maxCredits === undefined ? targets.length : Math.max(0, Math.floor((input.maxCredits - spent) / pageCost));
    const reading = stop ? [] : targets.slice(0, affordable);
    const failures: Stop[] = [];
    await Promise.all(
      reading.map(async (target) => {
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
          await record(`page:${target.urlKey}`, { seq: stepSeq, tool: 'scrape', parameters, result: { statusCode: stored.statusCode, credits: stored.credits }, startedAt });
        } catch (err) {
          if (isCancellation(err)) throw err;
          const failure = describeFailure(err);
          failures.push({ code: failure.code, message: `${target.url}: ${failure.message}` });
          await record(`page:${target.urlKey}`, { seq: stepSeq, tool: 'scrape', parameters, result: { error: failure }, startedAt });
        }
      }),
    );
    if (!stop && reading.length < targets.length) {
      stop = { code: 'MAX_CREDITS_REACHED', message: ceilingMessage(input.maxCredits!, spent, `reading ${targets[reading.length]!.url}`, pageCost) };
    }
    if (!stop && pageIds.length === 0 && failures.length > 0) {
      stop = { code: failures[0]!.code, message: `None of the ${failures.length} page(s) could be read; ${failures[0]!.message}` };
    }
    await record('finish', { seq: ++seq, tool: 'finish', parameters: { pages: pageIds.length }, result: stop ? { error: stop } : { creditsUsed: spent }, startedAt: new Date().toISOString() });
    await finish(stop ? 'failed' : 'completed', stop);
    if (stop) throw ApplicationFailure.create({ type: stop.code, message: stop.message, nonRetryable: true });
    return { creditsUsed: spent };
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => finish('cancelled', { code: 'CANCELLED', message: 'The agent run was cancelled' }));
      throw err;
    }
    if (err instanceof ApplicationFailure && err.nonRetryable) throw err;
    const failure = describeFailure(err);
    await finish('failed', { code: failure.code, message: failure.message });
    throw ApplicationFailure.create({ type: failure.code, message: failure.message, nonRetryable: true });
  }
}
