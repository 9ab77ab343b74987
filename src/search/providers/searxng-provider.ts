import { z } from 'zod';
import type { TimeFilter } from '../time-filter';
import { fetchProviderJson } from './http-json';
import { locationIgnored, type ProviderAnswer, type ProviderHit, type ProviderQuery, type SearchProvider } from './search-provider';

/** The part of SearXNG's JSON answer (`/search?format=json`) we read. */
const searxngAnswer = z.object({
  results: z.array(z.object({ url: z.string(), title: z.string().default(''), content: z.string().nullish() }).loose()),
  unresponsive_engines: z.array(z.unknown()).optional(),
});

/** SearXNG pages hold about ten results; we stop after this many. */
const MAX_PAGES = 5;

const TIME_RANGE = { d: 'day', w: 'week', m: 'month', y: 'year' } as const;

/** SearXNG's `time_range`, which knows only the last day, week, month or year. */
function timeRange(filter: TimeFilter | undefined, warnings: string[]): string | undefined {
  if (!filter) return undefined;
  if (filter.kind === 'range') {
    warnings.push('searxng does not support custom date ranges; tbs was ignored.');
    return undefined;
  }
  if (filter.unit === 'h' || filter.count > 1) warnings.push('searxng filters by whole days, weeks, months or years; tbs was widened.');
  if (filter.unit === 'h') return 'day';
  const widened = filter.count > 1 ? ({ d: 'w', w: 'm', m: 'y', y: 'y' } as const)[filter.unit] : filter.unit;
  return TIME_RANGE[widened];
}

/** `searxng`: a self-hosted SearXNG instance's JSON API (its settings must enable the json format). */
export class SearxngProvider implements SearchProvider {
  readonly name = 'searxng';

  constructor(private readonly baseUrl: string) {}

  async search(q: ProviderQuery, signal: AbortSignal): Promise<ProviderAnswer> {
    const warnings: string[] = [];
    // A bare language takes the country as its region (en + gb: en-GB); a full tag stays as given.
    const language = /[-_]/.test(q.lang) ? q.lang.replace('_', '-') : `${q.lang}-${q.country.toUpperCase()}`;
    const params = new URLSearchParams({ q: q.query, format: 'json', language, safesearch: '0' });
    if (q.vertical === 'news') params.set('categories', 'news');
    const range = timeRange(q.timeFilter, warnings);
    if (q.location) warnings.push(locationIgnored('searxng'));
    if (range) params.set('time_range', range);
    const hits: ProviderHit[] = [];
    const seen = new Set<string>();
    for (let page = 1; page <= MAX_PAGES && hits.length < q.candidates; page++) {
      params.set('pageno', String(page));
      const raw = await fetchProviderJson(`${this.baseUrl}/search?${params}`, { headers: { accept: 'application/json' }, signal }).catch((err: Error) => {
        // SearXNG refuses format=json (403) or answers its HTML page unless settings.yml allows json.
        if (/^HTTP 403|not JSON/.test(err.message)) err.message += ' (does settings.yml list json under search.formats?)';
        throw err;
      });
      const parsed = searxngAnswer.safeParse(raw);
      if (!parsed.success) throw new Error(`unexpected answer shape: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      const fresh = parsed.data.results.filter((r) => !seen.has(r.url));
      if (fresh.length === 0) break;
      for (const r of fresh) {
        seen.add(r.url);
        hits.push({ url: r.url, title: r.title, description: r.content ?? '' });
      }
    }
    return { hits: hits.slice(0, q.candidates), warnings };
  }
}
