/**
 * A dropped PDF through the pipeline's text stages, in the same capped worker process as a
 * batch run (time, memory and page limits from the pipeline file: a hostile upload is stopped
 * like a hostile file in a run, and the server goes on). Nothing is stored. The stages are the
 * pipeline's, without chunking (nothing here needs chunks); without a pipeline file, the
 * stages `pagestream extract` runs, with their defaults.
 */
import { createHash } from "node:crypto";
import type { PipelineConfig, RunSettings } from "../pipeline/config.js";
import { pipelineShape } from "../pipeline/config.js";
import { DEFAULT_STAGES } from "../pipeline/default-pipeline.js";
import type { DocumentResult } from "../core/records.js";
import { loadSpec } from "../pipeline/registry.js";
import type { StageConfig } from "../run/worker-protocol.js";
import { WorkerPool } from "../run/worker-pool.js";

export type Limits = Pick<RunSettings, "max_pages" | "timeout_seconds" | "max_worker_memory_mb" | "max_file_bytes">;

export class UploadExtraction {
  private pool?: WorkerPool;

  private constructor(
    private readonly baseDir: string,
    private readonly stages: StageConfig[],
    readonly limits: Limits,
    private readonly warn: (message: string) => void,
  ) {}

  static async create(config: PipelineConfig | undefined, baseDir: string, warn: (message: string) => void): Promise<UploadExtraction> {
    if (config) {
      const stages = config.stages.filter((s) => s.type !== "chunk").map((s) => ({ type: s.type, options: s.options }));
      return new UploadExtraction(config.baseDir, stages, config.settings, warn);
    }
    const stages: StageConfig[] = [];
    for (const { type } of DEFAULT_STAGES) stages.push({ type, options: (await loadSpec("stage", type, baseDir)).options.parse({}) as Record<string, unknown> });
    const limits = pipelineShape.pick({ max_pages: true, timeout_seconds: true, max_worker_memory_mb: true, max_file_bytes: true }).parse({});
    return new UploadExtraction(baseDir, stages, limits, warn);
  }

  /** Runs the bytes of a dropped file through the stages. Never rejects for a bad file: that is a failed result. */
  async extract(name: string, bytes: Uint8Array): Promise<DocumentResult> {
    // One worker, started at the first upload (pdf.js costs ~0.3 s to import) and kept for the next.
    this.pool ??= WorkerPool.start({
      workers: 1,
      baseDir: this.baseDir,
      stages: this.stages,
      maxPages: this.limits.max_pages,
      timeoutSeconds: this.limits.timeout_seconds,
      maxWorkerMemoryMb: this.limits.max_worker_memory_mb,
      warn: this.warn,
    });
    const id = createHash("sha256").update(bytes).digest("hex");
    const uri = `upload:${name}`;
    const item = { uri, size: bytes.length, mtimeMs: Date.now(), fingerprint: `sha256:${id}`, read: async () => bytes };
    const result = await this.pool.run({ item, id, bytes });
    if (!result) throw new Error("the server is stopping");
    return result;
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}
