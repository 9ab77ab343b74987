import { defineSearchAttributeKey, SearchAttributeType, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { executeChild, ParentClosePolicy, proxyActivities, startChild, uuid4, workflowInfo } from '@temporalio/workflow';
import type { MonitorActivities } from '../activities/monitor';
import { CRAWL_PRIORITY } from '../src/limits/crawl-priority';
import type { CheckTrigger } from '../src/monitors/monitor-plan';
import type { TargetChild } from '../src/monitors/target-jobs';
import { crawlWorkflow } from './crawl';
import { monitorNotifyWorkflow } from './monitor-notify';
import { searchWorkflow } from './search';

export interface MonitorCheckInput {
  monitorId: string;
  trigger: CheckTrigger;
  /** Set by the API for a manual check (it answers with the id); a scheduled check makes its own. */
  checkId?: string;
}

/** The time a Schedule meant a run for, which Temporal sets on the runs it starts. */
const SCHEDULED_START = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

const RETRY = { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 10 };
const { beginMonitorCheck, prepareMonitorTarget, finishMonitorCheck } = proxyActivities<MonitorActivities>({ startToCloseTimeout: '1m', retry: RETRY });
/** Comparing a large crawl reads and diffs every page: long, so it heartbeats. */
const { compareMonitorTarget } = proxyActivities<MonitorActivities>({ startToCloseTimeout: '30m', heartbeatTimeout: '30s', retry: RETRY });
const { judgeMonitorChanges } = proxyActivities<MonitorActivities>({ startToCloseTimeout: '30m', heartbeatTimeout: '1m', retry: { ...RETRY, maximumAttempts: 3 } });

const message = (err: unknown) => (err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err));

/** Runs one of a target's jobs through its own workflow, as a child of the check. */
async function runChild(child: TargetChild): Promise<void> {
  if (child.workflow === 'crawl') {
    await executeChild(crawlWorkflow, { workflowId: child.workflowId, args: [child.input], staticSummary: child.summary, priority: CRAWL_PRIORITY });
  } else {
    await executeChild(searchWorkflow, { workflowId: child.workflowId, args: [child.input], staticSummary: child.summary, workflowExecutionTimeout: child.timeoutMs + 60_000 });
  }
}

/**
 * One check of a monitor (started by its Schedule, or by POST /v2/monitor/{id}/run): records its
 * start (or why it is skipped), runs each target's jobs through the existing crawl, batch and
 * search workflows as children, compares what they stored with the monitor's snapshots, has the
 * LLM judge the changes when the monitor has a goal, and ends with the summary and the credits
 * the jobs charged. Notifications go out from a workflow of their own, so a slow receiver never
 * holds the next check. Postgres holds pages and results; this history holds ids and counts.
 */
export async function monitorCheckWorkflow(input: MonitorCheckInput): Promise<string> {
  const info = workflowInfo();
  const checkId = input.checkId ?? uuid4();
  const scheduledFor = info.typedSearchAttributes.get(SCHEDULED_START);
  const begun = await beginMonitorCheck({
    monitorId: input.monitorId,
    checkId,
    trigger: input.trigger,
    workflowId: info.workflowId,
    ...(scheduledFor && { scheduledFor: scheduledFor.getTime() }),
  });
  if (begun.status !== 'running') return begun.status;

  const failedTargets: { targetId: string; error: string }[] = [];
  await Promise.all(
    (begun.targets ?? []).map(async (target) => {
      let complete = true;
      try {
        const children = await prepareMonitorTarget({ checkId, targetId: target.id });
        await Promise.all(
          children.map((child) =>
            runChild(child).catch((err: unknown) => {
              complete = false;
              failedTargets.push({ targetId: target.id, error: message(err) });
            }),
          ),
        );
        // What the jobs stored is compared even when one failed; only a complete crawl reports removed pages.
        await compareMonitorTarget({ checkId, targetId: target.id, type: target.type, complete });
      } catch (err) {
        failedTargets.push({ targetId: target.id, error: message(err) });
      }
    }),
  );

  let judgeError: string | undefined;
  if (begun.judge) {
    try {
      await judgeMonitorChanges({ checkId });
    } catch (err) {
      judgeError = message(err);
    }
  }
  const finished = await finishMonitorCheck({ checkId, failedTargets, ...(judgeError && { judgeError }) });
  if (finished.notify) {
    try {
      await startChild(monitorNotifyWorkflow, { workflowId: `monitor-notify-${checkId}`, args: [{ checkId }], parentClosePolicy: ParentClosePolicy.ABANDON, staticSummary: `Notifications of check ${checkId}` });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }
  return finished.status;
}
