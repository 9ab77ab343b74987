import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptionsAction, type ScheduleSpec } from '@temporalio/client';

/**
 * Creates one of the service's own Schedules (clean-ups), or brings an existing one in line with
 * the current settings. Safe to call from every worker at every start. A run still going when
 * the next is due is skipped: each run does all that is due.
 */
export async function ensureSchedule(client: Client, scheduleId: string, spec: ScheduleSpec, action: ScheduleOptionsAction): Promise<void> {
  try {
    await client.schedule.create({ scheduleId, spec, action, policies: { overlap: ScheduleOverlapPolicy.SKIP } });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action }));
  }
}
