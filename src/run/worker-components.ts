/**
 * The source and stages of a worker, built again from a WorkerSetup wherever it runs (a
 * process of the local pool, a queue worker on another machine): the same declarations, the
 * same validated options, so a document comes out the same wherever it is processed.
 */
import type { Source, Stage } from "../core/plugin.js";
import { loadSpec } from "../pipeline/registry.js";
import { namedStage } from "./stage-failure.js";
import type { WorkerSetup } from "./worker-protocol.js";

/** `chunks`: some stage makes chunk records (StageSpec.producesChunks). */
export async function buildWorkerComponents(setup: WorkerSetup, warn: (message: string) => void): Promise<{ source: Source; stages: Stage[]; chunks: boolean }> {
  const context = { baseDir: setup.baseDir, warn };
  // Parsed again here: validated options come out the same, and options given by hand (a
  // command's own source over one folder) get their defaults.
  const sourceSpec = await loadSpec("source", setup.source.type, setup.baseDir);
  const source = await sourceSpec.create(sourceSpec.options.parse(setup.source.options), { ...context, purpose: "read" });
  const stages: Stage[] = [];
  let chunks = false;
  for (const config of setup.stages) {
    const spec = await loadSpec("stage", config.type, setup.baseDir);
    if (spec.producesChunks) chunks = true;
    stages.push(namedStage(config.type, await spec.create(spec.options.parse(config.options), context)));
  }
  return { source, stages, chunks };
}
