/**
 * The source and stages of a worker, built again from a WorkerSetup wherever it runs (a
 * process of the local pool, a queue worker on another machine): the same declarations, the
 * same validated options, so a document comes out the same wherever it is processed.
 */
import type { Source, Stage } from "../core/plugin.js";
import { loadSpec } from "../pipeline/registry.js";
import type { WorkerSetup } from "./worker-protocol.js";

export async function buildWorkerComponents(setup: WorkerSetup, warn: (message: string) => void): Promise<{ source: Source; stages: Stage[] }> {
  const context = { baseDir: setup.baseDir, warn };
  const sourceSpec = await loadSpec("source", setup.source.type, setup.baseDir);
  const source = await sourceSpec.create(setup.source.options, { ...context, purpose: "read" });
  const stages: Stage[] = [];
  for (const config of setup.stages) {
    const spec = await loadSpec("stage", config.type, setup.baseDir);
    stages.push(await spec.create(config.options, context));
  }
  return { source, stages };
}
