import { z } from 'zod';
import { FORMATS } from '../scrape/document';
import { clientTags, refineScrapeOptions, scrapeOptionsShape, type ScrapeOptions } from '../scrape/scrape-options';
import { TBS_PATTERN } from './time-filter';

/** Most results one search returns (API.md). */
export const MAX_SEARCH_LIMIT = 100;

/** Scrape options of a search: those of POST /v1/scrape, but `formats` may be empty (no scraping). */
const searchScrapeOptionsSchema = z
  .strictObject({
    ...scrapeOptionsShape,
    formats: z.array(z.enum(FORMATS)).default([]).describe('Formats of each result\'s page; empty (the default) scrapes nothing.'),
  })
  .superRefine((o, ctx) => refineScrapeOptions(o, ctx, ['scrapeOptions']));

export const searchRequestSchema = z.strictObject({
  query: z.string().trim().min(1).max(1_000).describe('What to search for.'),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(5).describe('Most results to return.'),
  lang: z
    .string()
    .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/, 'a language code such as en or pt-BR')
    .default('en')
    .describe('Language of the query and of the results; picks the stemmer of the local index.'),
  country: z.string().regex(/^[A-Za-z]{2}$/, 'ISO 3166-1 alpha-2 code').default('us').describe('Country to search from, where the provider supports it.'),
  location: z.string().max(200).optional().describe('Location to search from (e.g. "Berlin,Germany"), where the provider supports it.'),
  tbs: z
    .string()
    .regex(TBS_PATTERN, 'qdr:h|d|w|m|y (optionally with a count, qdr:w2) or cdr:1,cd_min:MM/DD/YYYY,cd_max:MM/DD/YYYY')
    .optional()
    .describe('Time filter, where the provider supports it; the local index filters on when pages were scraped.'),
  timeout: z.number().int().min(1_000).max(300_000).default(60_000).describe('Milliseconds the whole search, scraping included, may take.'),
  ignoreInvalidURLs: z.boolean().default(false).describe('Drop results whose URL this service would refuse to scrape (not http(s), or a non-public address).'),
  scrapeOptions: searchScrapeOptionsSchema.prefault({}).describe('How each result\'s page is scraped; formats default to none.'),
  ...clientTags,
});
export type SearchRequest = z.infer<typeof searchRequestSchema>;

/** A search job's options, as stored on the job and handed to its workflow. */
export interface SearchOptions {
  query: string;
  limit: number;
  lang: string;
  country: string;
  location?: string;
  tbs?: string;
  timeout: number;
  ignoreInvalidURLs: boolean;
  scrapeOptions: ScrapeOptions;
  /** v2 `sources: ["news"]`: ask the providers for news articles (absent: web pages). */
  vertical?: 'news';
}

/** What a `search-<jobId>` run takes (declared here, in the domain that builds it). */
export interface SearchWorkflowInput {
  jobId: string;
  teamId: string;
  options: SearchOptions;
  /** Epoch ms the API accepted the request: the search answers within `timeout` of it. */
  acceptedAt: number;
  browserQueue: string;
}

export function searchOptionsOf(r: SearchRequest): SearchOptions {
  const { origin: _o, integration: _i, ...options } = r;
  return options;
}
