import { inArray } from 'drizzle-orm';
import { z } from 'zod';
import { pages } from '../../db/schema';
import { MAX_SEARCH_LIMIT, type SearchOptions } from '../../search/search-options';
import { TBS_PATTERN } from '../../search/time-filter';
import { clientTags } from '../../scrape/scrape-options';
import type { ApiDeps } from '../api-deps';
import type { RouteTable } from '../route';
import { runSearch, type RankedResult } from '../run-search';
import { searchHighlights } from './search-highlights';
import { v2DocumentSchema } from '../../firecrawl/v2/document';
import { renderV2Document } from '../../firecrawl/v2/render-document';
import { formatName, planV2Scrape, refineV2ScrapeOptions, v2FormatSchema, v2ScrapeOptionsShape } from '../../firecrawl/v2/scrape-options';

/** `alexandria` is Firecrawl's cloud catalogue of data-provider tools: accepted, and answered with no tools. */
const SOURCES = ['web', 'news', 'images', 'alexandria'] as const;
const CATEGORIES = ['github', 'research', 'pdf'] as const;
type Category = (typeof CATEGORIES)[number];
/** Firecrawl's developer index is its own, cloud-only corpus: named, so the refusal can say why. */
const CLOUD_CATEGORIES = ['developer'] as const;

/** Sites `categories: ["research"]` narrows web results to (Firecrawl's list of academic sites). */
const RESEARCH_SITES = ['arxiv.org', 'pubmed.ncbi.nlm.nih.gov', 'ncbi.nlm.nih.gov', 'nature.com', 'science.org', 'ieee.org', 'sciencedirect.com', 'biorxiv.org', 'medrxiv.org', 'springer.com', 'wiley.com', 'acm.org', 'researchgate.net', 'semanticscholar.org', 'plos.org'];

const onSite = (host: string, site: string) => host === site || host.endsWith(`.${site}`);

/** Which category a web result belongs to, if any. */
function categoryOf(url: string, contentType: string | undefined): Category | undefined {
  const { hostname, pathname } = new URL(url);
  if (onSite(hostname, 'github.com')) return 'github';
  if (RESEARCH_SITES.some((s) => onSite(hostname, s))) return 'research';
  if (/\.pdf$/i.test(pathname) || contentType?.includes('application/pdf')) return 'pdf';
  return undefined;
}

const locationSchema = z.string().max(200);
const tbsSchema = z.string().regex(TBS_PATTERN, 'qdr:h|d|w|m|y (optionally with a count) or cdr:1,cd_min:MM/DD/YYYY,cd_max:MM/DD/YYYY');
/** A source as an object; firecrawl-aisdk's search tool gives each its own time filter and location. */
const sourceObjectSchema = z.strictObject({
  type: z.enum(SOURCES),
  tbs: tbsSchema.optional().describe("This source's time filter, instead of the request's."),
  location: locationSchema.optional().describe("This source's location, instead of the request's."),
});
type SourceSpec = z.infer<typeof sourceObjectSchema>;

const searchScrapeOptionsSchema = z
  .strictObject({ ...v2ScrapeOptionsShape, formats: z.array(v2FormatSchema).max(20).default([]).describe("Formats of each result's page; empty (the default) scrapes nothing.") })
  .superRefine((o, ctx) => {
    refineV2ScrapeOptions(o, ctx, ['scrapeOptions']);
    for (const name of ['summary', 'changeTracking'] as const) {
      if (o.formats.some((f) => formatName(f) === name)) ctx.addIssue({ code: 'custom', path: ['scrapeOptions', 'formats'], message: `the ${name} format is not available for search results; scrape the result's URL instead` });
    }
  });

/** Body of POST /v2/search (Firecrawl v2's SearchRequest). */
export const v2SearchRequestSchema = z.strictObject({
  query: z.string().trim().min(1).max(1_000).describe('What to search for.'),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(5).describe('Most results per source.'),
  sources: z
    .array(z.union([z.enum(SOURCES), sourceObjectSchema]))
    .min(1)
    .max(4)
    .default(['web'])
    .describe('"web" pages, "news" articles (the local index: dated pages), "images" (no configured provider offers it: empty, with a warning), "alexandria" (Firecrawl cloud tool discovery: `tools` is empty, with a warning). The first entry of a type counts.'),
  domainTools: z.boolean().optional().describe('Firecrawl cloud tool discovery for the results\' domains: there are no tools here, so `tools` is empty (with a warning) when true.'),
  toolDetail: z.enum(['compact', 'summary', 'full']).optional().describe('Detail of discovered tools; there are none here.'),
  categories: z
    .array(z.union([z.enum([...CATEGORIES, ...CLOUD_CATEGORIES]), z.strictObject({ type: z.enum([...CATEGORIES, ...CLOUD_CATEGORIES]) })]))
    .max(4)
    .refine((c) => !c.some((x) => (typeof x === 'string' ? x : x.type) === 'developer'), 'the developer index is a Firecrawl cloud feature; use github, research or pdf')
    .optional()
    .describe('Keep only web results of these kinds: github (github.com), research (academic sites), pdf; each result says its `category`.'),
  lang: z.string().regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/, 'a language code such as en or pt-BR').default('en').describe('Ours: language of the query and the results.'),
  country: z.string().regex(/^[A-Za-z]{2}$/, 'ISO 3166-1 alpha-2 code').default('us').describe('Country to search from, where the provider supports it.'),
  location: locationSchema.optional().describe('Location to search from (e.g. "Berlin,Germany"), where the provider supports it (Serper; the others say in `warning` that they ignored it).'),
  tbs: tbsSchema.optional().describe('Time filter.'),
  highlights: z
    .boolean()
    .optional()
    .describe("Query-relevant excerpts as each web result's `description` and news result's `snippet` (default true): its page's passages that best match the query, where the page was scraped or is in the local index; otherwise, and with false, the provider's snippet."),
  timeout: z.number().int().min(1_000).max(300_000).default(60_000).describe('Milliseconds the whole search, scraping included, may take.'),
  ignoreInvalidURLs: z.boolean().default(false).describe('Drop results whose URL this service would refuse to scrape.'),
  scrapeOptions: searchScrapeOptionsSchema.prefault({}).describe("How each result's page is scraped (v2 scrape options); formats default to none."),
  ...clientTags,
});

const webResultSchema = v2DocumentSchema.partial({ metadata: true }).extend({
  url: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  position: z.number().int(),
  category: z.enum(CATEGORIES).optional(),
});
const newsResultSchema = v2DocumentSchema.partial({ metadata: true }).extend({
  url: z.string(),
  title: z.string().optional(),
  snippet: z.string().optional(),
  date: z.string().optional().describe('When the article was published (from the stored page).'),
  position: z.number().int(),
});

/** When the results' pages say they were published (the local index's pages, or the scraped copy). */
async function publishedTimes(deps: ApiDeps, results: readonly RankedResult[]): Promise<Map<string, string>> {
  const ids = results.map((r) => r.indexedPageId).filter((id): id is string => id !== null);
  const rows = ids.length ? await deps.db.select({ id: pages.id, metadata: pages.metadata }).from(pages).where(inArray(pages.id, ids)) : [];
  const byId = new Map(rows.map((r) => [r.id, r.metadata?.publishedTime]));
  const out = new Map<string, string>();
  for (const r of results) {
    const date = r.page?.metadata?.publishedTime ?? (r.indexedPageId ? byId.get(r.indexedPageId) : undefined);
    if (date) out.set(r.url, date);
  }
  return out;
}

export function registerV2SearchRoutes(routes: RouteTable, deps: ApiDeps): void {
  routes.add({
    method: 'post',
    path: '/v2/search',
    tag: 'Firecrawl v2',
    summary: 'Search the web and scrape the results (v2)',
    description:
      'The /v1/search workflow once per source (web, news), with v2\'s shape: `data: {web, news, images}`. Charged as /v1/search, per source.',
    auth: true,
    body: v2SearchRequestSchema,
    responses: {
      200: {
        description: 'Results per source, best first',
        schema: z.object({
          success: z.literal(true),
          id: z.string().optional().describe('The web (else the news) source\'s search job; absent when neither was asked for.'),
          data: z.object({
            web: z.array(webResultSchema).optional(),
            news: z.array(newsResultSchema).optional(),
            images: z.array(z.object({ url: z.string() })).optional(),
            tools: z.array(z.never()).optional().describe('Always empty: Firecrawl cloud tool discovery (alexandria, domainTools) is not available.'),
          }),
          warning: z.string().optional(),
        }),
      },
      402: { description: 'The balance cannot cover `limit` results per source (INSUFFICIENT_CREDITS)' },
      502: { description: 'Every configured search provider failed or timed out (SEARCH_PROVIDER_ERROR)' },
    },
    handler: async (ctx, { body }) => {
      const { team } = ctx.state;
      const specs = new Map<SourceSpec['type'], SourceSpec>();
      for (const s of body.sources.map((s) => (typeof s === 'string' ? { type: s } : s))) if (!specs.has(s.type)) specs.set(s.type, s);
      const sources = [...specs.keys()];
      const categories = new Set<string>((body.categories ?? []).map((c) => (typeof c === 'string' ? c : c.type)));
      const { origin: _o, integration: _i, ...scrape } = body.scrapeOptions;
      const plan = planV2Scrape(scrape);
      const options = (source: SourceSpec): SearchOptions => {
        const location = source.location ?? body.location;
        const tbs = source.tbs ?? body.tbs;
        return {
          query: body.query,
          limit: body.limit,
          lang: body.lang,
          country: body.country,
          ...(location && { location }),
          ...(tbs && { tbs }),
          timeout: body.timeout,
          ignoreInvalidURLs: body.ignoreInvalidURLs,
          scrapeOptions: plan.options,
          ...(source.type === 'news' && { vertical: 'news' as const }),
        };
      };
      const searched = await Promise.all(
        sources.filter((s): s is 'web' | 'news' => s === 'web' || s === 'news').map(async (source) => ({ source, ...(await runSearch(deps, team, options(specs.get(source)!))) })),
      );
      const llm = deps.config.llm && { config: deps.config.llm, teamId: team.teamId };
      const document = async (r: RankedResult) => (r.page ? renderV2Document(deps.db, r.page, plan.output, {}, llm) : {});
      const data: Record<string, unknown[]> = {};
      const warnings: string[] = [];
      for (const { source, results, warning } of searched) {
        if (warning) warnings.push(source === 'web' ? warning : `${source}: ${warning}`);
        const highlighted = body.highlights === false ? undefined : await searchHighlights(deps.db, results, body.query);
        // Asked for by name, a result that keeps its snippet is counted; by default excerpts are there where they can be.
        if (body.highlights && highlighted?.missing) {
          warnings.push(`${source}: ${highlighted.missing} result(s) keep the provider's snippet: they were not scraped (scrapeOptions.formats) and are not in the local index, or no passage of their page matches the query.`);
        }
        /** The result's description (web) or snippet (news): its page's excerpts for the query where there are some. */
        const excerpt = (r: RankedResult) => highlighted?.byUrl.get(r.url) ?? r.description;
        if (source === 'web') {
          const kept = results
            .map((r) => ({ r, category: categoryOf(r.url, r.page?.metadata?.contentType) }))
            .filter(({ category }) => categories.size === 0 || (category !== undefined && categories.has(category)));
          data.web = await Promise.all(kept.map(async ({ r, category }, i) => ({ url: r.url, title: r.title, description: excerpt(r), position: i + 1, ...(category && { category }), ...(await document(r)) })));
        } else {
          const dates = await publishedTimes(deps, results);
          data.news = await Promise.all(results.map(async (r, i) => ({ url: r.url, title: r.title, snippet: excerpt(r), ...(dates.has(r.url) && { date: dates.get(r.url) }), position: i + 1, ...(await document(r)) })));
        }
      }
      if (sources.includes('images')) {
        data.images = [];
        warnings.push('Image search is not available from the configured search providers; `images` is empty.');
      }
      if (sources.includes('alexandria') || body.domainTools) {
        data.tools = [];
        warnings.push('Tool discovery (alexandria, domainTools) is a Firecrawl cloud feature; `tools` is empty.');
      }
      const id = (searched.find((s) => s.source === 'web') ?? searched[0])?.jobId;
      ctx.body = { success: true, ...(id && { id }), data, ...(warnings.length && { warning: warnings.join(' ') }) };
    },
  });
}

