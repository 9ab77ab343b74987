import { Client, Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';

/** The identities (`<pid>@<host>`) of the workers polling a task queue's activities lately. */
export async function activityPollerIdentities(temporalAddress: string, queue: string): Promise<Set<string>> {
  const connection = await Connection.connect({ address: temporalAddress });
  try {
    const answer = await new Client({ connection }).workflowService.describeTaskQueue({
      namespace: 'default',
      taskQueue: { name: queue },
      taskQueueType: proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
    });
    return new Set(answer.pollers?.map((p) => p.identity ?? ''));
  } finally {
    await connection.close();
  }
}
