/**
 * `pagestream status --queue URL`: a distributed run's fleet, read from Redis — BullMQ's job
 * counts, the coordinator's claim (with its run's progress) and the workers' heartbeats — and
 * the latest failed jobs with their reasons. It only reads.
 */
import { existsSync } from "node:fs";
import { formatIssue, loadPipelineFile } from "../pipeline/config.js";
import type { QueueOptions } from "../pipeline/queue-options.js";
import { chooseQueue } from "../run/queue/queue-setting.js";
import { EXIT } from "../exit-codes.js";

export interface StatusFlags {
  queue?: string;
  json?: boolean;
}

/** Failed jobs listed with their reasons. */
const FAILED_SHOWN = 5;
/** A worker not heard from for this long is shown as gone. */
const GONE_AFTER_MS = 10_000;

export async function statusCommand(path: string, flags: StatusFlags): Promise<number> {
  let fromFile: QueueOptions | undefined;
  // The file is optional (its queue name and URL), unless it was named and is broken.
  if (existsSync(path)) {
    const loaded = await loadPipelineFile(path);
    if (!loaded.ok) {
      for (const issue of loaded.issues) process.stderr.write(formatIssue({ ...issue, file: path }) + "\n");
      return EXIT.usage;
    }
    fromFile = loaded.config.settings.queue;
  }
  const chosen = chooseQueue(fromFile, flags.queue);
  if (!chosen.ok || !chosen.queue) {
    process.stderr.write(`pagestream: ${chosen.ok ? "which queue? give --queue redis://host:6379, or queue: in the pipeline file" : chosen.problem}\n`);
    return EXIT.usage;
  }
  const { address, options } = chosen.queue;
  const [{ checkReachable, redisOptions }, { readFleetStatus }] = await Promise.all([import("../run/queue/redis-connection.js"), import("../run/queue/fleet-status.js")]);
  try {
    await checkReachable(address);
  } catch (err) {
    process.stderr.write(`pagestream: ${(err as Error).message}\n`);
    return EXIT.fatal;
  }
  const status = await readFleetStatus(redisOptions(address), options.name, FAILED_SHOWN);
  if (flags.json) {
    process.stdout.write(JSON.stringify({ queue: options.name, redis: address.shown, ...status }, null, 2) + "\n");
    return EXIT.ok;
  }
  const now = Date.now();
  const lines: string[] = [];
  const { jobs, coordinator, workers, failed } = status;
  lines.push(`queue "${options.name}" at ${address.shown}`);
  lines.push(`jobs: ${jobs.waiting} waiting, ${jobs.active} active, ${jobs.delayed} waiting to retry, ${jobs.completed} done and not yet collected, ${jobs.failed} failed`);
  if (coordinator) {
    const s = coordinator.summary;
    const rate = s && s.seconds > 0 ? `, ${(s.pages / s.seconds).toFixed(1)} pages/s` : "";
    lines.push(
      `coordinator: pid ${coordinator.pid} on ${coordinator.host}, started ${coordinator.started_at}, ${coordinator.pipeline}` +
        (s ? `; ${s.documents} document(s) delivered (${s.ok} ok, ${s.failed} failed), ${s.skipped} skipped unchanged, ${s.pages} pages${rate}` : ""),
    );
  } else {
    lines.push("coordinator: none (no run is adding documents)");
  }
  const live = workers.filter((w) => !w.refused && now - Date.parse(w.seen_at) <= GONE_AFTER_MS);
  lines.push(`workers: ${live.length} live, ${live.reduce((n, w) => n + w.concurrency, 0)} document(s) at a time`);
  for (const w of workers) {
    const seconds = (Date.parse(w.seen_at) - Date.parse(w.started_at)) / 1000;
    const state = w.refused ? `refused: ${w.refused}` : now - Date.parse(w.seen_at) > GONE_AFTER_MS ? `gone (last seen ${w.seen_at})` : `seen ${Math.round((now - Date.parse(w.seen_at)) / 1000)} s ago`;
    lines.push(`  ${w.id}  concurrency ${w.concurrency}  ${w.documents} document(s), ${w.pages} pages${seconds > 0 ? `, ${(w.pages / seconds).toFixed(1)} pages/s` : ""}  ${state}`);
  }
  if (failed.length) {
    lines.push(`failed jobs (latest ${failed.length}):`);
    for (const f of failed) lines.push(`  ${f.reason}`);
  }
  process.stdout.write(lines.join("\n") + "\n");
  return EXIT.ok;
}
