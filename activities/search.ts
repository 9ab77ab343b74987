import { Context } from '@temporalio/activity';
import type { Db } from '../src/db/client';
import { AppError } from '../src/errors';
import { failJob } from '../src/jobs/job-store';
import type { PublicUrlGate } from '../src/net/public-url-gate';
import { finishSearch, type FinishSearchInput } from '../src/search/finish-search';
import type { ProviderChain } from '../src/search/providers/provider-chain';
import { candidatesWanted, distinctHits, loadCandidates, saveCandidates, scrapePoolSize } from '../src/search/search-candidates';
import type { SearchOptions } from '../src/search/search-options';
import { parseTimeFilter } from '../src/search/time-filter';
import { withAppFailures } from './app-failure';

export interface SearchActivityDeps {
  db: Db;
  providers: ProviderChain;
  gate: PublicUrlGate;
}

export interface FindCandidatesInput {
  jobId: string;
  options: SearchOptions;
  /** Epoch ms by which the provider must have answered. */
  deadline: number;
}

export interface FoundCandidates {
  provider: string;
  candidates: number;
  /** The pages to scrape (empty without formats), best provider rank first. */
  toScrape: { url: string; urlKey: string }[];
  warnings: string[];
}

/** Whether the gate's syntax checks (scheme, literal addresses) pass: no DNS lookup. */
export function admittedBy(gate: PublicUrlGate) {
  return (url: URL) => {
    try {
      gate.parse(url.href);
      return true;
    } catch {
      return false;
    }
  };
}

export function createSearchActivities(deps: SearchActivityDeps) {
  return {
    /**
     * Asks the provider chain for candidates and stores them on the job. A retry reuses what an
     * earlier attempt stored, so the results cannot change between attempts. When every
     * provider fails the job is marked failed and SEARCH_PROVIDER_ERROR ends the workflow.
     */
    async findSearchCandidates(input: FindCandidatesInput): Promise<FoundCandidates> {
      return withAppFailures(async () => {
        const { options } = input;
        let stored = await loadCandidates(deps.db, input.jobId);
        let provider = stored[0]?.provider ?? deps.providers.names[0]!;
        let warnings: string[] = [];
        if (stored.length === 0) {
          try {
            const answer = await deps.providers.search(
              {
                query: options.query,
                candidates: candidatesWanted(options.limit),
                lang: options.lang,
                country: options.country,
                ...(options.location && { location: options.location }),
                ...(options.tbs && { tbs: options.tbs, timeFilter: parseTimeFilter(options.tbs) }),
                ...(options.vertical && { vertical: options.vertical }),
              },
              input.deadline,
              Context.current().cancellationSignal,
            );
            provider = answer.provider;
            warnings = answer.warnings;
            const admits = options.ignoreInvalidURLs ? admittedBy(deps.gate) : () => true;
            await saveCandidates(deps.db, input.jobId, provider, distinctHits(answer.hits, admits));
            stored = await loadCandidates(deps.db, input.jobId);
          } catch (err) {
            if (err instanceof AppError && err.permanent) await failJob(deps.db, input.jobId, { code: err.code, message: err.message });
            throw err;
          }
        }
        const scraping = options.scrapeOptions.formats.length > 0;
        return {
          provider,
          candidates: stored.length,
          toScrape: scraping ? stored.slice(0, scrapePoolSize(options.limit)).map((c) => ({ url: c.url, urlKey: c.urlKey })) : [],
          warnings,
        };
      });
    },

    /** Ranks, keeps `limit`, charges and completes the job (see finishSearch). */
    async finishSearch(input: FinishSearchInput): Promise<{ results: number }> {
      return withAppFailures(() => finishSearch(deps.db, input));
    },
  };
}

export type SearchActivities = ReturnType<typeof createSearchActivities>;
