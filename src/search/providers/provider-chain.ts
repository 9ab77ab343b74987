import { AppError } from '../../errors';
import type { ProviderAnswer, ProviderQuery, SearchProvider } from './search-provider';

export interface ChainAnswer extends ProviderAnswer {
  /** The provider that answered. */
  provider: string;
}

/**
 * The configured providers in order: the first that answers wins, each failure moves on to the
 * next. Every provider gets at most `perProviderMs`, and none runs past the search's deadline.
 * When all fail, SEARCH_PROVIDER_ERROR names each provider and what went wrong.
 */
export class ProviderChain {
  constructor(
    private readonly providers: readonly SearchProvider[],
    private readonly perProviderMs: number,
  ) {}

  get names(): string[] {
    return this.providers.map((p) => p.name);
  }

  async search(query: ProviderQuery, deadline: number, cancel?: AbortSignal): Promise<ChainAnswer> {
    const failures: string[] = [];
    for (const provider of this.providers) {
      const budget = Math.min(this.perProviderMs, deadline - Date.now());
      if (budget <= 0) {
        failures.push(`${provider.name} was not asked: the search's timeout had passed`);
        continue;
      }
      const timer = AbortSignal.timeout(budget);
      try {
        const answer = await provider.search(query, cancel ? AbortSignal.any([timer, cancel]) : timer);
        const fellBack = failures.map((f) => `Search provider ${f}; results are from ${provider.name}.`);
        return { ...answer, provider: provider.name, warnings: [...fellBack, ...answer.warnings] };
      } catch (err) {
        cancel?.throwIfAborted();
        failures.push(timer.aborted ? `${provider.name} did not answer within ${budget} ms` : `${provider.name} failed: ${(err as Error).message}`);
      }
    }
    throw new AppError('SEARCH_PROVIDER_ERROR', `Search provider ${failures.join('; ')}`);
  }
}
