/**
 * What a document's result depends on, as hashes the run state compares: a document processed
 * under another identity is processed again.
 * - configHash: pagestream's version, and each stage's type, version (a built-in's is raised when
 *   its output changes, see ComponentSpec.version) and options — and, for a stage of your own,
 *   the sha256 of its module file, so editing the stage re-processes what it made.
 * - limitsHash: configHash with the limits; a document stopped by a limit is tried again when
 *   they change (and only then).
 * A queue worker compares the identity it was started with against a job's (see issue 17).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { PACKAGE_VERSION } from "../package-files.js";
import type { PipelineConfig } from "../pipeline/config.js";
import { isModulePath } from "../pipeline/registry.js";

export interface PipelineIdentity {
  version: string;
  configHash: string;
  limitsHash: string;
}

export async function pipelineIdentity(config: PipelineConfig): Promise<PipelineIdentity> {
  const stages = await Promise.all(
    config.stages.map(async (s) => ({
      type: s.type,
      // Left out at 1, so that a component's first version keeps the hashes runs already recorded.
      ...((s.spec.version ?? 1) !== 1 ? { version: s.spec.version } : {}),
      options: s.options,
      ...(isModulePath(s.type) ? { module: await fileHash(resolve(config.baseDir, s.type)) } : {}),
    })),
  );
  const configHash = hash({ version: PACKAGE_VERSION, stages });
  const { max_pages, max_file_bytes, timeout_seconds, max_worker_memory_mb } = config.settings;
  return { version: PACKAGE_VERSION, configHash, limitsHash: hash({ configHash, max_pages, max_file_bytes, timeout_seconds, max_worker_memory_mb }) };
}

export function hash(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex");
}

async function fileHash(path: string): Promise<string> {
  return createHash("sha256").update(await readFile(path)).digest("hex");
}
