import { ApplicationFailure, CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { ExtractActivities } from '../activities/extract';
import type { ScrapeActivities } from '../activities/scrape-page';
import type { JsonSchema } from '../src/json-schema/json-schema';
import { PATTERN_PAGE_CAP, type PageFailureSummary, type PatternPage, type UrlDiscoveryActivities } from '../src/extract/url-pattern';
import type { PageTask } from '../src/jobs/page-task';
import type { ScrapeOptions } from '../src/scrape/scrape-options';
import { describeFailure, pageActivities, scrapePage } from './page-activities';

export interface ExtractWorkflowInput {
  jobId: string;
  teamId: string;
  /** The request's URLs, in order. */
  pages: PatternPage[];
  /** `https://host/path/*` wildcards, expanded through map discovery. */
  patterns: string[];
  discovery: { includeSubdomains: boolean; allowExternalLinks: boolean; ignoreSitemap: boolean };
  spec: { schema?: JsonSchema; prompt?: string; systemPrompt?: string };
  /** How each page is scraped (formats are markdown only: the engines read what is stored). */
  scrapeOptions: ScrapeOptions;
  browserQueue: string;
}

const { recordPageFailure } = proxyActivities<ScrapeActivities>({ startToCloseTimeout: '30s', retry: { maximumAttempts: 5 } });
const { endExtract, finishExtract } = proxyActivities<ExtractActivities>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 5 } });
const discovery = proxyActivities<UrlDiscoveryActivities>({ startToCloseTimeout: '5 minutes', heartbeatTimeout: '30s', retry: { maximumAttempts: 3 } });

/** The pages to read: the listed ones, then each wildcard's pages (up to the cap), each URL once. */
async function pagesToRead(input: ExtractWorkflowInput): Promise<PatternPage[]> {
  const out = [...input.pages];
  const seen = new Set(out.map((p) => p.urlKey));
  let fromPatterns = 0;
  for (const pattern of input.patterns) {
    if (fromPatterns >= PATTERN_PAGE_CAP) break;
    const { pages } = await discovery.expandUrlPattern({
      jobId: input.jobId,
      teamId: input.teamId,
      pattern,
      limit: PATTERN_PAGE_CAP - fromPatterns,
      ...input.discovery,
    });
    for (const page of pages) {
      if (seen.has(page.urlKey) || fromPatterns >= PATTERN_PAGE_CAP) continue;
      seen.add(page.urlKey);
      out.push(page);
      fromPatterns++;
    }
  }
  return out;
}

/**
 * POST /v1/extract: scrape each page through the normal pipeline, infer a schema when only a
 * prompt was given, read each page with the engines, then merge, charge and complete in one
 * step. Content stays in Postgres; the workflow carries page ids.
 */
export async function extractWorkflow(input: ExtractWorkflowInput): Promise<{ credits: number }> {
  const { jobId, teamId } = input;
  const acts = pageActivities(input.scrapeOptions.timeout, input.browserQueue);
  try {
    const targets = await pagesToRead(input);
    const deadline = Date.now() + input.scrapeOptions.timeout;
    const tasks: PageTask[] = targets.map((p) => ({
      jobId,
      teamId,
      url: p.url,
      urlKey: p.urlKey,
      depth: 0,
      options: input.scrapeOptions,
      deadline,
      operation: 'extract',
      chargeKey: `extract:${jobId}:${p.urlKey}`,
      finishJob: false,
    }));
    const settled = await Promise.allSettled(tasks.map((task) => scrapePage(task, acts)));
    const stored: string[] = [];
    const failures: PageFailureSummary[] = [];
    for (const [i, result] of settled.entries()) {
      if (result.status === 'fulfilled') {
        stored.push(result.value.pageId);
        continue;
      }
      if (isCancellation(result.reason)) throw result.reason;
      const failure = describeFailure(result.reason);
      await recordPageFailure(tasks[i]!, failure);
      failures.push({ url: tasks[i]!.url, code: failure.code, message: failure.message });
    }
    if (stored.length === 0) {
      const first = failures[0]!;
      throw ApplicationFailure.create({ type: first.code, message: `None of the ${failures.length} page(s) could be read; ${first.url}: ${first.message}`, nonRetryable: true });
    }
    const schema =
      input.spec.schema ?? (await acts.extract.inferExtractSchema({ jobId, prompt: input.spec.prompt ?? '', samplePageId: stored[0]! }));
    await Promise.all(stored.map((pageId) => acts.extract.extractPageData({ jobId, pageId, spec: { ...input.spec, schema } })));
    return await finishExtract({ jobId, teamId, pageIds: stored, failures, ...(!input.spec.schema && input.spec.prompt && { prompt: input.spec.prompt }) });
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => endExtract({ jobId, status: 'cancelled', code: 'CANCELLED', message: 'The extract job was cancelled' }));
      throw err;
    }
    const failure = describeFailure(err);
    await endExtract({ jobId, status: 'failed', code: failure.code, message: failure.message });
    throw ApplicationFailure.create({ type: failure.code, message: failure.message, nonRetryable: true });
  }
}
