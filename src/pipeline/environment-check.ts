/**
 * Between validation and building: the components' `check` hooks, which look at the machine
 * (a program, a language pack) for what a pipeline file cannot say. `pagestream validate`
 * prints what they find; a run stops on it before it opens the source or writes anything.
 */
import { describeError } from "../core/document-error.js";
import type { AnySpec, RunContext } from "../core/plugin.js";
import type { PipelineConfig } from "./config.js";

export interface EnvironmentIssue {
  /** Where the component is in the pipeline: `source`, `stages[2]`, `sinks[0]`. */
  path: string;
  type: string;
  message: string;
}

/** Every component's check, all of them, in pipeline order. */
export async function checkEnvironment(config: PipelineConfig, context: RunContext): Promise<EnvironmentIssue[]> {
  const components: [string, { type: string; spec: AnySpec; options: Record<string, unknown> }][] = [
    ["source", config.source],
    ...config.stages.map((s, i) => [`stages[${i}]`, s] as [string, typeof s]),
    ...config.sinks.map((s, i) => [`sinks[${i}]`, s] as [string, typeof s]),
  ];
  const issues: EnvironmentIssue[] = [];
  for (const [path, component] of components) {
    const check = component.spec.check as ((options: Record<string, unknown>, context: RunContext) => Promise<void>) | undefined;
    if (!check) continue;
    try {
      await check.call(component.spec, component.options, context);
    } catch (err) {
      issues.push({ path, type: component.type, message: describeError(err) });
    }
  }
  return issues;
}

/** `pipeline.yaml: stages[1] (ocr): Tesseract is not installed…`. */
export function formatEnvironmentIssue(issue: EnvironmentIssue, file?: string): string {
  return `${file ? file + ": " : ""}${issue.path} (${issue.type}): ${issue.message}`;
}
