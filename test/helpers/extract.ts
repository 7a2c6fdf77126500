import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { DocumentResult } from "../../src/core/records.js";
import { processDocument } from "../../src/core/runner.js";
import { loadSpec } from "../../src/core/registry.js";
import { fileItem } from "../../src/sources/folder.js";

/** Runs one file through an extract stage with the given options, as `pagestream extract` does. */
export async function extractFile(path: string, options: Record<string, unknown> = {}): Promise<DocumentResult> {
  const spec = await loadSpec("stage", "extract", process.cwd());
  const stage = await spec.create(spec.options.parse(options), { baseDir: process.cwd(), warn: () => {} });
  const info = await stat(path);
  return processDocument(fileItem(resolve(path), info.size, info.mtimeMs), [stage]);
}

/** The pages of a result that must have succeeded. */
export function okPages(result: DocumentResult) {
  if (result.status !== "ok") throw new Error(`${result.uri} failed: ${result.error.code}: ${result.error.message}`);
  return result.pages;
}
