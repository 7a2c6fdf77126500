/**
 * What every worker builds and applies, made from the validated pipeline: the same in a local
 * run's pool and in a `pagestream worker` on another machine, so a document comes out the same
 * wherever it is processed.
 */
import type { ResultNeeds } from "../core/plugin.js";
import type { PipelineConfig } from "../pipeline/config.js";
import type { WorkerSetup } from "./worker-protocol.js";

export function workerSetup(config: PipelineConfig): WorkerSetup {
  const { settings } = config;
  return {
    baseDir: config.baseDir,
    source: { type: config.source.type, options: config.source.options },
    stages: config.stages.map((s) => ({ type: s.type, options: s.options })),
    limits: { maxPages: settings.max_pages, maxFileBytes: settings.max_file_bytes },
    needs: resultNeeds(config),
  };
}

/** What the pipeline's sinks read of a result, together. */
function resultNeeds(config: PipelineConfig): ResultNeeds {
  const needs: ResultNeeds = { lines: false };
  for (const s of config.sinks) if (s.spec.needs?.(s.options).lines) needs.lines = true;
  return needs;
}
