import { z } from 'zod';
import { fetchProviderJson } from './http-json';
import type { ProviderAnswer, ProviderQuery, SearchProvider } from './search-provider';

const serperHit = z.object({ link: z.string(), title: z.string().default(''), snippet: z.string().nullish() }).loose();

/** The part of Serper's answers we read: `organic` from POST /search, `news` from POST /news. */
const serperAnswer = z.object({ organic: z.array(serperHit).default([]), news: z.array(serperHit).default([]) });

/** Serper answers at most this many results per request. */
const MAX_NUM = 100;

/** `serper`: Google results through Serper's API (serper.dev); `tbs` passes through as Google takes it. */
export class SerperProvider implements SearchProvider {
  readonly name = 'serper';

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async search(q: ProviderQuery, signal: AbortSignal): Promise<ProviderAnswer> {
    const body = {
      q: q.query,
      num: Math.min(q.candidates, MAX_NUM),
      gl: q.country.toLowerCase(),
      hl: q.lang.toLowerCase(),
      ...(q.location && { location: q.location }),
      ...(q.tbs && { tbs: q.tbs }),
    };
    const raw = await fetchProviderJson(`${this.baseUrl}/${q.vertical === 'news' ? 'news' : 'search'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': this.apiKey },
      body: JSON.stringify(body),
      signal,
    });
    const parsed = serperAnswer.safeParse(raw);
    if (!parsed.success) throw new Error(`unexpected answer shape: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const results = q.vertical === 'news' ? parsed.data.news : parsed.data.organic;
    return { hits: results.map((r) => ({ url: r.link, title: r.title, description: r.snippet ?? '', })), warnings: [] };
  }
}
