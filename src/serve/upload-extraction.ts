/**
 * A dropped PDF through the pipeline's text stages, in the same capped worker process as a
 * batch run (time, memory and page limits from the pipeline file: a hostile upload is stopped
 * like a hostile file in a run, and the server goes on). Nothing is stored in the archive.
 *
 * A worker reads every document through a source of its own, never from the run's memory; an
 * upload is therefore streamed into the server's private upload folder (uploadFolder(), in the
 * system's temp folder: TMPDIR) and handed to the worker as an item of a folder source over that
 * folder. The
 * stages are the pipeline's, without chunking (nothing here needs chunks); without a pipeline
 * file, the stages `pagestream extract` runs, with their defaults.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DocumentResult } from "../core/records.js";
import { pipelineShape, type PipelineConfig, type RunSettings } from "../pipeline/config.js";
import { DEFAULT_STAGES } from "../pipeline/default-pipeline.js";
import { loadSpec } from "../pipeline/registry.js";
import { WorkerPool } from "../run/worker-pool.js";
import type { ComponentConfig } from "../run/worker-protocol.js";
import { fileItem } from "../sources/folder-item.js";
import type { ReceivedUpload } from "./upload-receiving.js";

export type Limits = Pick<RunSettings, "max_pages" | "timeout_seconds" | "max_worker_memory_mb" | "max_file_bytes">;

export class UploadExtraction {
  private pool?: WorkerPool;
  private folder?: Promise<string>;

  private constructor(
    private readonly baseDir: string,
    private readonly stages: ComponentConfig[],
    readonly limits: Limits,
    private readonly warn: (message: string) => void,
  ) {}

  static async create(config: PipelineConfig | undefined, baseDir: string, warn: (message: string) => void): Promise<UploadExtraction> {
    if (config) {
      const stages = config.stages.filter((s) => s.type !== "chunk").map((s) => ({ type: s.type, options: s.options }));
      return new UploadExtraction(config.baseDir, stages, config.settings, warn);
    }
    const stages: ComponentConfig[] = [];
    for (const { type } of DEFAULT_STAGES) stages.push({ type, options: (await loadSpec("stage", type, baseDir)).options.parse({}) as Record<string, unknown> });
    const limits = pipelineShape.pick({ max_pages: true, timeout_seconds: true, max_worker_memory_mb: true, max_file_bytes: true }).parse({});
    return new UploadExtraction(baseDir, stages, limits, warn);
  }

  /** The private folder (mode 0700) uploads are received into, made at the first upload and removed by close(). */
  uploadFolder(): Promise<string> {
    return (this.folder ??= mkdtemp(join(tmpdir(), "pagestream-uploads-")));
  }

  /** Runs a dropped file, received into uploadFolder(), through the stages. Never rejects for a bad file: that is a failed result. */
  async extract(name: string, upload: ReceivedUpload): Promise<DocumentResult> {
    const folder = await this.uploadFolder();
    // One worker, started at the first upload (pdf.js costs ~0.3 s to import) and kept for the next.
    const folderSpec = await loadSpec("source", "folder", this.baseDir);
    this.pool ??= WorkerPool.start({
      workers: 1,
      setup: {
        baseDir: this.baseDir,
        source: { type: "folder", options: folderSpec.options.parse({ path: folder, stable_seconds: 0 }) as Record<string, unknown> },
        stages: this.stages,
        limits: { maxPages: this.limits.max_pages, maxFileBytes: this.limits.max_file_bytes },
        // Both text modes are rendered from the pages' lines and paragraphs.
        needs: { lines: true },
      },
      timeoutSeconds: this.limits.timeout_seconds,
      maxWorkerMemoryMb: this.limits.max_worker_memory_mb,
      warn: this.warn,
    });
    const outcome = await this.pool.run({ item: fileItem(upload.file, `upload:${name}`, upload.size, Date.now()) });
    if (!outcome || outcome.kind !== "processed") throw new Error("the server is stopping");
    return outcome.result;
  }

  async close(): Promise<void> {
    await this.pool?.close();
    if (this.folder) await rm(await this.folder, { recursive: true, force: true });
  }
}
