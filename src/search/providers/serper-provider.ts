import { z } from 'zod';
import { fetchProviderJson } from './http-json';
import type { ProviderAnswer, ProviderQuery, SearchProvider } from './search-provider';

/** The part of Serper's answer (POST /search) we read. */
const serperAnswer = z.object({
  organic: z.array(z.object({ link: z.string(), title: z.string().default(''), snippet: z.string().nullish() }).loose()).default([]),
});

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
    const raw = await fetchProviderJson(`${this.baseUrl}/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': this.apiKey },
      body: JSON.stringify(body),
      signal,
    });
    const parsed = serperAnswer.safeParse(raw);
    if (!parsed.success) throw new Error(`unexpected answer shape: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    return { hits: parsed.data.organic.map((r) => ({ url: r.link, title: r.title, description: r.snippet ?? '' })), warnings: [] };
  }
}
