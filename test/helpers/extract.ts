import { resolve } from "node:path";
import { DEFAULT_STAGES } from "../../src/pipeline/default-pipeline.js";
import type { DocumentResult } from "../../src/core/records.js";
import { processFile } from "../../src/run/process-document.js";
import { loadSpec } from "../../src/pipeline/registry.js";

/**
 * Runs one file through the extract stage with the given options, alone or followed by the
 * other default stages (what `pagestream extract` runs).
 */
export async function extractFile(
  path: string,
  options: Record<string, unknown> = {},
  stages: "extract" | "default" = "extract",
  /** Options of the other default stages, by type. */
  stageOptions: Record<string, Record<string, unknown>> = {},
): Promise<DocumentResult> {
  const context = { baseDir: process.cwd(), warn: () => {} };
  const types = stages === "default" ? DEFAULT_STAGES.map((s) => s.type) : ["extract"];
  const built = [];
  for (const type of types) {
    const spec = await loadSpec("stage", type, process.cwd());
    built.push(await spec.create(spec.options.parse(type === "extract" ? options : (stageOptions[type] ?? {})), context));
  }
  return processFile(resolve(path), built);
}

/** The pages of a result that must have succeeded. */
export function okPages(result: DocumentResult) {
  if (result.status !== "ok") throw new Error(`${result.uri} failed: ${result.error.code}: ${result.error.message}`);
  return result.pages;
}
