/** The second phase: validated configuration → running components (this is where files are opened). */
import type { PipelineConfig } from "./config.js";
import type { RunContext } from "./plugin.js";
import type { Pipeline } from "./runner.js";

export async function buildPipeline(config: PipelineConfig, context: RunContext): Promise<Pipeline> {
  const source = await config.source.spec.create(config.source.options, context);
  const stages = [];
  for (const s of config.stages) stages.push(await s.spec.create(s.options, context));
  const sinks = [];
  for (const s of config.sinks) sinks.push(await s.spec.create(s.options, context));
  return { source, stages, sinks, concurrency: config.concurrency };
}
