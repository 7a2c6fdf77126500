/**
 * `pagestream`: the plugin surface (see plugin.ts) and the programmatic entry points — read a
 * pipeline file, and run one document through stages as `pagestream extract` does.
 */
export * from "./plugin.js";
export { loadPipelineFile, parsePipeline, formatIssue } from "./pipeline/config.js";
export type { ConfigIssue, ConfigResult, PipelineConfig } from "./pipeline/config.js";
export { processDocument } from "./run/process-document.js";
