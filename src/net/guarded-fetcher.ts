import { fetch, type Agent } from 'undici';
import { classifyNetworkError } from './classify-network-error';
import { deadlineSignal } from '../deadline';
import { fetchHttp, type FetchedResponse } from './fetch-http';
import { createGuardedAgent } from './guarded-agent';
import type { PublicUrlGate } from './public-url-gate';

export interface GuardedFetchOptions {
  headers: Record<string, string>;
  /** Epoch ms by which the whole fetch, redirects included, must be done. */
  deadline: number;
  cancel?: AbortSignal;
  skipTlsVerification?: boolean;
  maxBytes?: number;
}

const MAX_REDIRECTS = 10;

/** GET through the public-URL gate, with redirects, a deadline and a size limit. */
export class GuardedFetcher {
  private readonly verifying: Agent;
  private readonly trusting: Agent;

  constructor(
    private readonly gate: PublicUrlGate,
    private readonly maxBytes: number,
  ) {
    this.verifying = createGuardedAgent(gate, { rejectUnauthorized: true, connectTimeoutMs: 10_000 });
    this.trusting = createGuardedAgent(gate, { rejectUnauthorized: false, connectTimeoutMs: 10_000 });
  }

  get(url: string, o: GuardedFetchOptions): Promise<FetchedResponse> {
    const { signal, timedOut } = deadlineSignal(o.deadline, o.cancel);
    return fetchHttp(this.gate.parse(url), {
      gate: this.gate,
      dispatcher: o.skipTlsVerification ? this.trusting : this.verifying,
      headers: o.headers,
      signal,
      timedOut,
      maxBytes: o.maxBytes ?? this.maxBytes,
      maxRedirects: MAX_REDIRECTS,
    });
  }

  /**
   * POSTs a body and returns the status, without following redirects (a webhook receiver that
   * redirects is misconfigured, and a redirect could point past the gate's first check).
   */
  async post(url: string, body: string, headers: Record<string, string>, deadline: number): Promise<number> {
    const target = this.gate.parse(url);
    const { signal, timedOut } = deadlineSignal(deadline);
    try {
      const response = await fetch(target, { method: 'POST', body, headers, dispatcher: this.verifying, redirect: 'manual', signal });
      await response.body?.cancel();
      return response.status;
    } catch (err) {
      throw classifyNetworkError(err, target.href, timedOut());
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.verifying.close(), this.trusting.close()]);
  }
}
