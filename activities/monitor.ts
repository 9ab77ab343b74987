import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Config, SmtpConfig } from '../src/config/env';
import type { Db } from '../src/db/client';
import type { LlmClient } from '../src/extract/llm/llm-client';
import { beginCheck, type BegunCheck, type BeginCheckInput } from '../src/monitors/begin-check';
import { comparePages } from '../src/monitors/compare-pages';
import { compareSearchResults } from '../src/monitors/compare-search';
import { finishCheck, type FinishCheckInput, type FinishedCheck } from '../src/monitors/finish-check';
import { judgeChanges } from '../src/monitors/judge-changes';
import { sendMonitorEmail } from '../src/monitors/monitor-email';
import { deliverMonitorEvent, notifiablePages, recordNotification, type MonitorEventRef } from '../src/monitors/monitor-events';
import { removeExpiredMonitorData, type RetentionPass } from '../src/monitors/retention';
import { prepareTargetJobs, type TargetChild } from '../src/monitors/target-jobs';
import type { GuardedFetcher } from '../src/net/guarded-fetcher';
import { withAppFailures } from './app-failure';
import { withHeartbeat } from './heartbeat';

export interface MonitorActivityDeps {
  db: Db;
  config: Config;
  /** Asks whether an earlier check's run is still going (overlap). */
  temporal: Client;
  /** Webhook deliveries go through the public-URL gate. */
  fetcher: GuardedFetcher;
  /** The judge's LLM (LLM_BASE_URL); absent, goals are not judged. */
  llm?: LlmClient;
  /** Where emails go (SMTP_URL); absent, none are sent. */
  smtp?: SmtpConfig;
}

/** Monitor check activities. Each is idempotent: a retry finds in Postgres what the last attempt did. */
export function createMonitorActivities(deps: MonitorActivityDeps) {
  const heartbeat = () => Context.current().heartbeat();
  const isRunning = async (workflowId: string) => {
    try {
      return (await deps.temporal.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  };
  return {
    /** Records the check's start, or why it is skipped. */
    async beginMonitorCheck(input: BeginCheckInput): Promise<BegunCheck> {
      return beginCheck(deps.db, input, isRunning);
    },

    /** Creates the target's jobs; answers the child workflows that run them. */
    async prepareMonitorTarget(input: { checkId: string; targetId: string }): Promise<TargetChild[]> {
      return withAppFailures(() => prepareTargetJobs(deps.db, deps.config, input.checkId, input.targetId));
    },

    /** Compares what the target's jobs found with the monitor's snapshots and records the check's pages. */
    async compareMonitorTarget(input: { checkId: string; targetId: string; type: 'scrape' | 'crawl' | 'search'; complete: boolean }): Promise<void> {
      return withAppFailures(() =>
        withHeartbeat(() => (input.type === 'search' ? compareSearchResults(deps.db, input.checkId, input.targetId) : comparePages(deps.db, input.checkId, input.targetId, input.complete, heartbeat))),
      );
    },

    /** Asks the LLM whether each change matters to the monitor's goal. */
    async judgeMonitorChanges(input: { checkId: string }): Promise<number> {
      const { llm } = deps;
      if (!llm) return 0;
      return withAppFailures(() => withHeartbeat(() => judgeChanges(deps.db, llm, input.checkId, heartbeat)));
    },

    /** Summary, credits and final status. */
    async finishMonitorCheck(input: FinishCheckInput): Promise<FinishedCheck> {
      return finishCheck(deps.db, input);
    },

    /** The next pages of a check to send `monitor.page` events for. */
    async monitorEventPages(input: { checkId: string; after: string; limit: number }): Promise<string[]> {
      return notifiablePages(deps.db, input.checkId, input.after, input.limit);
    },

    /** One signed webhook delivery; throws (and is retried) until the receiver answers 2xx. */
    async deliverMonitorWebhook(ref: MonitorEventRef): Promise<boolean> {
      return withAppFailures(() => deliverMonitorEvent(deps.db, deps.fetcher, ref));
    },

    /** The check's email to the monitor's recipients. */
    async sendMonitorEmail(input: { checkId: string }): Promise<{ sent: boolean; recipients: number; pages: number }> {
      const { smtp } = deps;
      if (!smtp) return { sent: false, recipients: 0, pages: 0 };
      return sendMonitorEmail(deps.db, smtp, input.checkId);
    },

    /** Merges what was notified into the check's notificationStatus. */
    async recordMonitorNotification(input: { checkId: string; status: Record<string, unknown> }): Promise<void> {
      await recordNotification(deps.db, input.checkId, input.status);
    },

    /** Removes checks and snapshots older than each monitor's retention. */
    async removeExpiredMonitorData(): Promise<RetentionPass> {
      return withHeartbeat(() => removeExpiredMonitorData(deps.db));
    },
  };
}

export type MonitorActivities = ReturnType<typeof createMonitorActivities>;
