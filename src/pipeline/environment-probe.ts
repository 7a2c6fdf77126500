/**
 * `pagestream validate --env`, the second phase: what the pipeline will use on this machine,
 * looked at without changing anything — the source (a folder exists and can be read, a bucket
 * answers), each sink's files and the run folder (they can be written) — through the components'
 * `probe` hooks. Every problem is reported, not the first.
 */
import { join, relative, resolve } from "node:path";
import { describeError } from "../core/document-error.js";
import { checkWritable } from "../core/output-folder.js";
import type { AnySpec, RunContext } from "../core/plugin.js";
import type { PipelineConfig } from "./config.js";
import type { EnvironmentIssue } from "./environment-check.js";
import { STATE_FILE } from "./run-folder-files.js";

export interface ProbeResult {
  /** What was found to work, per component: `source (folder): folder in can be read`. */
  found: string[];
  issues: EnvironmentIssue[];
}

export async function probeEnvironment(config: PipelineConfig, context: RunContext): Promise<ProbeResult> {
  const found: string[] = [];
  const issues: EnvironmentIssue[] = [];
  const components: [string, { type: string; spec: AnySpec; options: Record<string, unknown> }][] = [
    ["source", config.source],
    ...config.sinks.map((s, i) => [`sinks[${i}]`, s] as [string, typeof s]),
  ];
  for (const [path, component] of components) {
    const probe = component.spec.probe as ((options: Record<string, unknown>, context: RunContext) => Promise<string>) | undefined;
    if (!probe) continue;
    try {
      found.push(`${path} (${component.type}): ${await probe.call(component.spec, component.options, context)}`);
    } catch (err) {
      issues.push({ path, type: component.type, message: describeError(err) });
    }
  }
  // The run folder holds the run state and the lock: a run stops at once without it.
  const runFolder = resolve(config.baseDir, config.settings.run_folder);
  const shown = relative(config.baseDir, runFolder) || runFolder;
  try {
    await checkWritable(runFolder, "folder", shown);
    await checkWritable(join(runFolder, STATE_FILE), "file", join(shown, STATE_FILE));
    found.push(`run_folder: ${shown} can be written`);
  } catch (err) {
    issues.push({ path: "run_folder", type: "folder", message: describeError(err) });
  }
  return { found, issues };
}
