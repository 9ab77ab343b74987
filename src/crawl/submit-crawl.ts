import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Client } from '@temporalio/client';
import { crawlWorkflow } from '../../workflows';
import type { Config } from '../config/env';
import { creditBalance } from '../credits/ledger';
import { pageCredits } from '../credits/pricing';
import type { Db } from '../db/client';
import { jobs } from '../db/schema';
import { AppError } from '../errors';
import { requireLlmForPromptOnly } from '../scrape/extract-spec-fields';
import { findIdempotentJob, requestHash } from '../jobs/idempotency';
import { createJob } from '../jobs/job-store';
import { teamCrawlPriority } from '../limits/team-priority';
import { browserRequiredBy } from '../scrape/engine-choice';
import { SEARCH_ATTRIBUTES } from '../temporal/search-attributes';
import type { CrawlOptions } from './crawl-options';
import { crawlRunInput } from './crawl-run';

export interface SubmitDeps {
  db: Db;
  temporal: Client;
  config: Config;
}

export interface Submission {
  teamId: string;
  options: CrawlOptions;
  /** The raw body, for idempotency. */
  body: unknown;
  idempotencyKey?: string;
}

/** What one page of this crawl costs at least, given its scrape options. */
export function crawlPagePrice(options: CrawlOptions): number {
  const s = options.scrapeOptions;
  return pageCredits({
    renderer: browserRequiredBy(s) ? 'browser' : 'http',
    screenshot: s.formats.some((f) => f.startsWith('screenshot')),
    json: s.formats.includes('json'),
  });
}

/**
 * Creates a crawl (or batch) job and starts `crawl-<jobId>`. A crawl's limit is clamped to what
 * the team's credits cover; a batch must be covered in full. A resubmission with the same
 * idempotency key returns the first job.
 */
export async function submitCrawl(deps: SubmitDeps, s: Submission): Promise<string> {
  if (s.options.scrapeOptions.jsonOptions) requireLlmForPromptOnly(s.options.scrapeOptions.jsonOptions, deps.config.llm);
  const hash = requestHash(s.body);
  if (s.idempotencyKey) {
    const existing = await findIdempotentJob(deps.db, s.teamId, s.idempotencyKey, hash);
    if (existing) return existing.id;
  }
  const price = crawlPagePrice(s.options);
  const balance = await creditBalance(deps.db, s.teamId);
  const affordable = Math.floor(balance / price);
  if (affordable === 0) throw new AppError('INSUFFICIENT_CREDITS', `A page of this crawl costs ${price} credits; the team has ${balance}`);
  if (s.options.mode === 'batch' && affordable < s.options.limit) {
    throw new AppError('INSUFFICIENT_CREDITS', `This batch needs ${s.options.limit * price} credits; the team has ${balance}`);
  }
  const options: CrawlOptions = { ...s.options, limit: Math.min(s.options.limit, affordable) };

  const jobId = randomUUID();
  try {
    await createJob(deps.db, {
      id: jobId,
      teamId: s.teamId,
      kind: options.mode,
      url: options.url,
      options,
      pageLimit: options.limit,
      ttlHours: deps.config.JOB_TTL_HOURS,
      ...(s.idempotencyKey && { idempotencyKey: s.idempotencyKey, requestHash: hash }),
    });
  } catch (err) {
    // Two submissions with one key raced; the other one created the job.
    const existing = s.idempotencyKey ? await findIdempotentJob(deps.db, s.teamId, s.idempotencyKey, hash) : undefined;
    if (existing) return existing.id;
    throw err;
  }
  const host = new URL(options.url).host;
  await deps.temporal.workflow
    .start(crawlWorkflow, {
    taskQueue: deps.config.taskQueues.http,
    workflowId: `crawl-${jobId}`,
    priority: await teamCrawlPriority(deps.db, s.teamId, deps.config.TEAM_PAGES_IN_FLIGHT),
    staticSummary: `${options.mode === 'batch' ? `Batch scrape of ${options.urls?.length} URLs from` : 'Crawl of'} ${options.url} (limit ${options.limit})`,
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.crawlStatus, value: 'scraping' },
      { key: SEARCH_ATTRIBUTES.teamId, value: s.teamId },
      { key: SEARCH_ATTRIBUTES.crawlHost, value: host },
      { key: SEARCH_ATTRIBUTES.pagesDone, value: 0 },
      { key: SEARCH_ATTRIBUTES.pagesFailed, value: 0 },
    ],
    args: [crawlRunInput(jobId, s.teamId, options, deps.config)],
    })
    .catch(async (err: unknown) => {
      await deps.db.update(jobs).set({ status: 'failed', errorCode: 'INTERNAL_ERROR', error: 'The crawl could not be started', finishedAt: new Date() }).where(eq(jobs.id, jobId));
      throw err;
    });
  return jobId;
}
