/** The second phase: validated configuration → running components (this is where files are opened and workers start). */
import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import type { PipelineConfig } from "../pipeline/config.js";
import type { RunContext } from "../core/plugin.js";
import { PACKAGE_VERSION as version } from "../package-files.js";
import { RunState } from "./run-state.js";
import type { Pipeline, RunSink } from "./runner.js";
import { WorkerPool } from "./worker-pool.js";


/** The run state's file in the run folder. */
export const STATE_FILE = "run-state.sqlite";

export async function buildPipeline(config: PipelineConfig, context: RunContext): Promise<Pipeline> {
  const { settings } = config;
  // The source first: one that cannot be reached (a missing bucket) stops the run before anything is written.
  const source = await config.source.spec.create(config.source.options, context);
  const runFolder = resolve(config.baseDir, settings.run_folder);
  await mkdir(runFolder, { recursive: true });
  const state = await RunState.open(join(runFolder, STATE_FILE));
  const sinks: RunSink[] = [];
  try {
    for (const s of config.sinks) {
      const key = uniqueKey(sinkKey(s.type, s.options), sinks);
      const sink = await s.spec.create(s.options, { ...context, checkpoint: state.checkpointOf(key) });
      sinks.push({ key, type: s.type, sink });
    }
    state.adoptSinks(sinks.map((s) => ({ key: s.key, resumed: s.sink.resumed })));
  } catch (err) {
    await Promise.allSettled(sinks.map((s) => s.sink.abort()));
    state.close();
    throw err;
  }
  const stages = config.stages.map((s) => ({ type: s.type, options: s.options }));
  const workers = settings.concurrency ?? availableParallelism();
  const processor = WorkerPool.start({
    workers,
    baseDir: config.baseDir,
    stages,
    maxPages: settings.max_pages,
    timeoutSeconds: settings.timeout_seconds,
    maxWorkerMemoryMb: settings.max_worker_memory_mb,
    warn: context.warn,
  });
  const configHash = hash({ version, stages });
  const { max_pages, max_file_bytes, timeout_seconds, max_worker_memory_mb } = settings;
  return {
    source,
    sinks,
    processor,
    state,
    configHash,
    limitsHash: hash({ configHash, max_pages, max_file_bytes, timeout_seconds, max_worker_memory_mb }),
    workers,
    maxFileBytes: settings.max_file_bytes,
    shutdownTimeoutSeconds: settings.shutdown_timeout_seconds,
  };
}

/** A sink is known to the run state by its type and options: other options, another sink (it starts empty). */
function sinkKey(type: string, options: Record<string, unknown>): string {
  return `${type}:${hash(options).slice(0, 16)}`;
}

function uniqueKey(key: string, taken: readonly RunSink[]): string {
  let candidate = key;
  for (let n = 2; taken.some((s) => s.key === candidate); n++) candidate = `${key}#${n}`;
  return candidate;
}

function hash(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex");
}
