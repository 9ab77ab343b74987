import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import { LocalIndexProvider } from './local-index-provider';
import { ProviderChain } from './provider-chain';
import type { SearchProvider } from './search-provider';
import { SearxngProvider } from './searxng-provider';
import { SerperProvider } from './serper-provider';

/** The chain SEARCH_PROVIDER names (config validation made sure each has its settings). */
export function configuredProviders(config: Config, db: Db): ProviderChain {
  const make = (name: Config['SEARCH_PROVIDER'][number]): SearchProvider => {
    switch (name) {
      case 'local':
        return new LocalIndexProvider(db, config.SEARCH_PROVIDER_TIMEOUT_MS);
      case 'searxng':
        return new SearxngProvider(config.SEARXNG_URL.replace(/\/+$/, ''));
      case 'serper':
        return new SerperProvider(config.SERPER_URL.replace(/\/+$/, ''), config.SERPER_API_KEY!);
    }
  };
  return new ProviderChain(config.SEARCH_PROVIDER.map(make), config.SEARCH_PROVIDER_TIMEOUT_MS);
}
