import { proxyLocalActivities } from '@temporalio/workflow';
import type { floorActivities } from './floor-activities';

const { answer } = proxyLocalActivities<typeof floorActivities>({ startToCloseTimeout: '10s' });

/** A scrape's shape with none of its work: one workflow task, one local activity that returns at once. */
export async function floorWorkflow(n: number): Promise<number> {
  return answer(n);
}
