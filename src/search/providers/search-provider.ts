import type { TimeFilter } from '../time-filter';

/** What a search asks of a provider. */
export interface ProviderQuery {
  query: string;
  /** Candidates wanted: more than the search's `limit`, so ranking has room to work. */
  candidates: number;
  lang: string;
  country: string;
  location?: string;
  timeFilter?: TimeFilter;
  /** The raw `tbs`, for providers that take Google's syntax as is. */
  tbs?: string;
  /** `news`: dated news articles rather than web pages (v2 search's `sources: ["news"]`). */
  vertical?: 'news';
}

/** The warning of a provider that cannot search from a location (only Serper can). */
export const locationIgnored = (provider: string) => `${provider} cannot search from a location; location was ignored.`;

/** One result as a provider ranked it. */
export interface ProviderHit {
  url: string;
  title: string;
  description: string;
  /** The local index's stored page the hit came from; its content can be ranked without a scrape. */
  indexedPageId?: string;
}

export interface ProviderAnswer {
  hits: ProviderHit[];
  /** Options the provider could not honour, and the like. */
  warnings: string[];
}

/** A web-search backend. Implementations throw on any failure; the chain names the provider. */
export interface SearchProvider {
  readonly name: string;
  search(query: ProviderQuery, signal: AbortSignal): Promise<ProviderAnswer>;
}
