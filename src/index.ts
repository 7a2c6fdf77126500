/**
 * `pagestream`: the plugin surface (see plugin.ts) and the programmatic entry points — read a
 * pipeline file and run it as `pagestream run` does, or run one file through stages as
 * `pagestream extract` does.
 */
export * from "./plugin.js";
export { loadPipelineFile, parsePipeline, formatIssue } from "./pipeline/config.js";
export type { ConfigIssue, ConfigResult, PipelineConfig } from "./pipeline/config.js";
export { processFile } from "./run/process-document.js";
export { runPipeline } from "./run/run-pipeline.js";
export type { RunEvents, RunOptions, RunOutcome } from "./run/run-pipeline.js";
