/**
 * A queue's state for `pagestream status`: BullMQ's job counts, the coordinator's claim, the
 * workers' heartbeats and the latest failed jobs' reasons. Reads only.
 */
import { Queue, type RedisOptions } from "bullmq";
import { Redis } from "ioredis";
import { QUEUE_PREFIX, readCoordinator, readWorkers, type CoordinatorRecord, type WorkerRecord } from "./fleet.js";

export interface FleetStatus {
  jobs: { waiting: number; active: number; delayed: number; completed: number; failed: number };
  coordinator?: CoordinatorRecord;
  workers: WorkerRecord[];
  /** The latest failed jobs: the document and why (`uri: code: message`). */
  failed: { id: string; reason: string; failed_at: string }[];
}

export async function readFleetStatus(connection: RedisOptions, name: string, failedShown: number): Promise<FleetStatus> {
  const redis = new Redis(connection);
  redis.on("error", () => {});
  const queue = new Queue(name, { connection, prefix: QUEUE_PREFIX });
  queue.on("error", () => {});
  try {
    const counts = await queue.getJobCounts("waiting", "prioritized", "active", "delayed", "completed", "failed");
    const failedJobs = await queue.getFailed(0, failedShown - 1);
    return {
      jobs: {
        waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        completed: counts.completed ?? 0,
        failed: counts.failed ?? 0,
      },
      ...(await readCoordinator(redis, name).then((c) => (c ? { coordinator: c } : {}))),
      workers: await readWorkers(redis, name),
      failed: failedJobs.filter((j) => j?.id).map((j) => ({ id: j.id!, reason: j.failedReason, failed_at: new Date(j.finishedOn ?? j.timestamp).toISOString() })),
    };
  } finally {
    await queue.close().catch(() => {});
    redis.disconnect();
  }
}
