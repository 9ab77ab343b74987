import { Context } from '@temporalio/activity';
import { eq, inArray } from 'drizzle-orm';
import { extractCredits, pageCredits } from '../src/credits/pricing';
import type { Db } from '../src/db/client';
import { pages } from '../src/db/schema';
import { AppError } from '../src/errors';
import type { ExtractionEngine } from '../src/extract/extraction-engine';
import type { FieldNote } from '../src/db/field-note';
import { extractPage } from '../src/extract/extract-page';
import type { JsonSchema } from '../src/json-schema/json-schema';
import { inferSchema } from '../src/extract/llm/infer-schema';
import type { LlmClient } from '../src/extract/llm/llm-client';
import { LlmExtractionEngine } from '../src/extract/llm/llm-engine';
import { mergeResults } from '../src/extract/merge-results';
import type { PageExtractionInput } from '../src/extract/page-extraction-input';
import type { PageFailureSummary } from '../src/extract/url-pattern';
import {
  completeExtraction,
  endJobUnfinished,
  findExtraction,
  findPageExtraction,
  findPageExtractions,
  storeInferredSchema,
  storePageExtraction,
  type PageExtractionRow,
} from '../src/jobs/extraction-store';
import { pageColumns } from '../src/db/page-row';
import { chargedPerPage } from '../src/jobs/page-task';
import { withAppFailures } from './app-failure';
import { withHeartbeat } from './heartbeat';

export interface ExtractActivityDeps {
  db: Db;
  /** Present when this worker has an LLM configured. */
  llm?: LlmClient;
}

export interface PageExtractionSummary {
  pageId: string;
  llmTokens: number;
  /** What the page was charged in all (a scrape's json format), or 0. */
  credits: number;
}

export interface FinishExtractInput {
  jobId: string;
  teamId: string;
  /** Stored pages, in the order of the request's URLs. */
  pageIds: string[];
  failures: PageFailureSummary[];
  /** The prompt of a prompt-only job, shown with the inferred schema. */
  prompt?: string;
}

const schemaNote = (schema: JsonSchema, prompt: string | undefined): FieldNote => ({
  path: '',
  confidence: 1,
  source: 'schema',
  evidence: prompt ?? null,
  message: 'no schema was given: this one was inferred from the prompt by the LLM',
  schema,
});

/** Extraction activities. Each is idempotent: what an earlier attempt stored is returned, not redone or recharged. */
export function createExtractActivities(deps: ExtractActivityDeps) {
  const engine: ExtractionEngine | undefined = deps.llm && new LlmExtractionEngine(deps.llm);

  async function loadPage(pageId: string) {
    const [row] = await deps.db.select(pageColumns).from(pages).where(eq(pages.id, pageId));
    if (!row || row.status !== 'scraped') throw new AppError('INTERNAL_ERROR', `page ${pageId} is not stored`, undefined, { permanent: true });
    return {
      row,
      input: { url: row.metadata?.url ?? row.url, rawHtml: row.rawHtml ?? row.html ?? '', markdown: row.markdown ?? '', text: row.text ?? '' },
    };
  }

  function requireLlm(): LlmClient {
    if (!deps.llm) throw new AppError('LLM_NOT_CONFIGURED', 'This worker has no LLM configured (LLM_BASE_URL, LLM_MODEL), and a prompt without a schema needs one', undefined, { permanent: true });
    return deps.llm;
  }

  async function summary(row: PageExtractionRow): Promise<PageExtractionSummary> {
    const [page] = await deps.db.select({ credits: pages.credits }).from(pages).where(eq(pages.id, row.pageId));
    return { pageId: row.pageId, llmTokens: row.llmTokens, credits: page?.credits ?? 0 };
  }

  return {
    /** Reads one stored page with the engines and stores the result (with its charge, for a scrape's json format). */
    async extractPageData(input: PageExtractionInput): Promise<PageExtractionSummary> {
      return withAppFailures(() =>
        withHeartbeat(async () => {
          const done = await findPageExtraction(deps.db, input.pageId);
          if (done) return summary(done);
          const { row, input: page } = await loadPage(input.pageId);
          const signal = Context.current().cancellationSignal;
          let schema = input.spec.schema;
          let inferredTokens = 0;
          if (!schema) {
            const inferred = await inferSchema(requireLlm(), input.spec.prompt ?? '', page.markdown, signal);
            schema = inferred.schema;
            inferredTokens = inferred.tokens;
          }
          const result = await extractPage(page, { ...input.spec, schema }, engine, signal);
          if (!input.spec.schema) {
            result.notes.unshift(schemaNote(schema, input.spec.prompt));
            result.llmTokens += inferredTokens;
          }
          const task = input.task;
          const paid = task && {
            teamId: task.teamId,
            operation: task.operation,
            idempotencyKey: task.chargeKey,
            finishJob: task.finishJob,
            amount: chargedPerPage(task)
              ? pageCredits({ renderer: row.metadata?.renderer ?? 'http', screenshot: task.options.formats.some((f) => f.startsWith('screenshot')), json: true })
              : 0,
          };
          return summary(await storePageExtraction(deps.db, { pageId: input.pageId, jobId: input.jobId, schema, result }, paid));
        }),
      );
    },

    /** The schema for a prompt-only extract job, inferred once (with the first page as a sample) and kept. */
    async inferExtractSchema(input: { jobId: string; prompt: string; samplePageId: string }): Promise<JsonSchema> {
      return withAppFailures(() =>
        withHeartbeat(async () => {
          const existing = await findExtraction(deps.db, input.jobId);
          if (existing) return existing.schema;
          const { input: page } = await loadPage(input.samplePageId);
          const inferred = await inferSchema(requireLlm(), input.prompt, page.markdown, Context.current().cancellationSignal);
          return storeInferredSchema(deps.db, input.jobId, inferred.schema, inferred.tokens);
        }),
      );
    },

    /** Merges the pages' results, charges the job once and completes it. */
    async finishExtract(input: FinishExtractInput): Promise<{ credits: number }> {
      return withAppFailures(async () => {
        const job = await findExtraction(deps.db, input.jobId);
        if (job?.completedAt) return { credits: job.credits };
        const rows = await findPageExtractions(deps.db, input.pageIds);
        const stored = await deps.db.select({ id: pages.id, url: pages.url, statusCode: pages.statusCode }).from(pages).where(inArray(pages.id, input.pageIds));
        const urls = new Map(stored.map((p) => [p.id, p.url]));
        const ordered = input.pageIds.map((id) => rows.find((r) => r.pageId === id)).filter((r): r is PageExtractionRow => !!r);
        const schema = job?.schema ?? ordered[0]?.schema;
        if (!schema || ordered.length === 0) throw new AppError('INTERNAL_ERROR', 'no page of this extract job was extracted', undefined, { permanent: true });
        const merged = mergeResults(
          ordered.map((r) => ({ result: { data: r.data, notes: r.notes, llmTokens: r.llmTokens }, url: urls.get(r.pageId)!, label: urls.get(r.pageId)! })),
          schema,
        );
        if (job?.schemaInferred) merged.notes.unshift(schemaNote(job.schema, input.prompt));
        for (const p of stored.filter((p) => (p.statusCode ?? 0) >= 400)) {
          merged.notes.push({ path: '', confidence: 0, source: 'none', evidence: null, url: p.url, message: `the page answered HTTP ${p.statusCode}; what it says may be an error page` });
        }
        for (const f of input.failures) {
          merged.notes.push({ path: '', confidence: 0, source: 'none', evidence: null, url: f.url, message: `the page could not be read (${f.code}): ${f.message}` });
        }
        const llmTokens = merged.llmTokens + (job?.inferenceTokens ?? 0);
        const credits = extractCredits(ordered.length, llmTokens);
        await completeExtraction(deps.db, {
          jobId: input.jobId,
          teamId: input.teamId,
          schema,
          result: merged,
          sources: ordered.map((r) => urls.get(r.pageId)!),
          llmTokens,
          credits,
        });
        return { credits };
      });
    },

    /** Records why a job ended without a result. */
    async endExtract(input: { jobId: string; status: 'failed' | 'cancelled'; code: string; message: string }): Promise<void> {
      await endJobUnfinished(deps.db, input.jobId, input.status, input.code, input.message);
    },
  };
}

export type ExtractActivities = ReturnType<typeof createExtractActivities>;
