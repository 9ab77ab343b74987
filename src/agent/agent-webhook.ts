import { eq } from 'drizzle-orm';
import { signWebhook } from '../crawl/webhooks/sign-webhook';
import { webhookOption, type WebhookTarget } from '../crawl/webhooks/webhook-option';
import type { Db } from '../db/client';
import { jobs, teams } from '../db/schema';
import { AppError } from '../errors';
import type { GuardedFetcher } from '../net/guarded-fetcher';
import type { AgentResult } from './agent-store';

/** The run's events a webhook may ask for. Firecrawl's per-step `action` event is not sent here (the trace lists the steps). */
export const AGENT_WEBHOOK_EVENTS = ['started', 'completed', 'failed', 'cancelled'] as const;
export type AgentWebhookEvent = (typeof AGENT_WEBHOOK_EVENTS)[number];

const agentWebhook = webhookOption(
  AGENT_WEBHOOK_EVENTS,
  'Where to POST the run’s events (`agent.started`, `agent.completed`, `agent.failed`, `agent.cancelled`): a URL, or {url, headers?, metadata?, events?}. Signed with X-Webhook-Signature.',
);
export const agentWebhookSchema = agentWebhook.schema;
export type AgentWebhook = WebhookTarget<AgentWebhookEvent>;
export const agentWebhookOf = agentWebhook.normalise;

const ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * POSTs one event of a run to its webhook, signed with the team's secret; nothing when the run
 * has none or it does not want the event. A receiver that does not answer 2xx is an error, so the
 * activity retries; the receiver tells a repeat by `type` and `id`.
 */
export async function deliverAgentWebhook(db: Db, fetcher: GuardedFetcher, jobId: string, event: AgentWebhookEvent): Promise<void> {
  const [job] = await db
    .select({ options: jobs.options, result: jobs.result, error: jobs.error, secret: teams.webhookSecret })
    .from(jobs)
    .innerJoin(teams, eq(teams.id, jobs.teamId))
    .where(eq(jobs.id, jobId));
  const webhook = (job?.options as { webhook?: AgentWebhook } | undefined)?.webhook;
  if (!job || !webhook || !webhook.events.includes(event)) return;
  const result = (job.result ?? {}) as AgentResult;
  const ended = event !== 'started';
  const body = JSON.stringify({
    success: event === 'started' || event === 'completed',
    type: `agent.${event}`,
    id: jobId,
    ...(ended && { data: result.data ?? null, creditsUsed: result.creditsUsed ?? 0 }),
    ...(ended && job.error && { error: job.error }),
    metadata: webhook.metadata,
  });
  const status = await fetcher.post(webhook.url, body, { ...webhook.headers, 'content-type': 'application/json', 'x-webhook-signature': signWebhook(job.secret, body) }, Date.now() + ATTEMPT_TIMEOUT_MS);
  if (status < 200 || status >= 300) throw new AppError('INTERNAL_ERROR', `the webhook receiver ${webhook.url} answered ${status}`);
}
