import { proxyActivities } from '@temporalio/workflow';
import type { MapActivities } from '../activities/map';

/** `map-<jobId>`: one activity that lists a site's URLs; the links land on the job row. */
export async function mapWorkflow(input: { jobId: string; timeoutMs: number }): Promise<{ links: number }> {
  const { mapSite } = proxyActivities<MapActivities>({
    startToCloseTimeout: input.timeoutMs + 5_000,
    retry: { initialInterval: '500ms', maximumAttempts: 2 },
  });
  return mapSite({ jobId: input.jobId, deadline: Date.now() + input.timeoutMs });
}
