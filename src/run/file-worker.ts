/**
 * Files on this machine, one at a time, through stages in the same capped worker process as a
 * batch run (timeout, memory cap, page limit): what `pagestream extract` and the web page's
 * dropped PDFs use, so a hostile file given on the command line is stopped like one in a run.
 * The worker reads each file through a folder source over the file's own folder, as it reads
 * any item; the process that asks never holds the bytes.
 */
import type { ChildProcess } from "node:child_process";
import { stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { ResultNeeds } from "../core/plugin.js";
import type { DocumentResult } from "../core/records.js";
import { fileItem } from "../sources/folder-item.js";
import { failedResult } from "./process-document.js";
import { WorkerPool } from "./worker-pool.js";
import type { ComponentConfig, WorkerSetup } from "./worker-protocol.js";

/** The run's limits, as pipeline.yaml names them. */
export interface FileLimits {
  max_pages: number;
  max_file_bytes: number;
  timeout_seconds: number;
  max_worker_memory_mb: number;
}

export interface FileWorkerOptions {
  /** The folder the files are in (the worker's folder source is rooted there). */
  folder: string;
  /** Folder module-path stages resolve against. */
  baseDir: string;
  /** Validated stage options, or a promise of them: the worker starts booting meanwhile. */
  stages: ComponentConfig[] | Promise<ComponentConfig[]>;
  limits: FileLimits;
  needs: ResultNeeds;
  /** A worker already forked with the same memory cap (`forkExtractionWorker`), to use instead of forking one. */
  worker?: ChildProcess;
  warn(message: string): void;
}

export class FileWorker {
  private readonly pool: WorkerPool;
  private readonly folder: string;

  constructor(options: FileWorkerOptions) {
    this.folder = options.folder;
    const setup: Promise<WorkerSetup> = Promise.resolve(options.stages).then((stages) => ({
      baseDir: options.baseDir,
      // Any file the caller names is taken: the folder's include globs do not apply to read().
      source: { type: "folder", options: { path: options.folder, include: ["**/*"], stable_seconds: 0 } },
      stages,
      limits: { maxPages: options.limits.max_pages, maxFileBytes: options.limits.max_file_bytes },
      needs: options.needs,
    }));
    this.pool = WorkerPool.start({ workers: 1, setup, timeoutSeconds: options.limits.timeout_seconds, maxWorkerMemoryMb: options.limits.max_worker_memory_mb, adopt: options.worker, warn: options.warn });
  }

  /** Starts the worker now, before the first file (pdf.js loads while the caller prepares). */
  prestart(): void {
    this.pool.prestart();
  }

  /** One file (a name in the folder) through the stages; `uri` is what the result names it. Never rejects for a bad file. */
  async process(name: string, uri: string): Promise<DocumentResult> {
    const info = await stat(join(this.folder, name)).catch(() => undefined);
    const item = fileItem(name, uri, info?.size ?? 0, info?.mtimeMs ?? 0);
    const outcome = await this.pool.run({ item });
    if (!outcome) return failedResult(uri, new Error("stopped before the file was done"));
    if (outcome.kind !== "processed") throw new Error("a file worker never asks to skip unchanged bytes");
    return outcome.result;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /** Lets the worker exit by itself, without waiting for it (see `WorkerPool.release`). */
  release(): void {
    this.pool.release();
  }

  kill(): void {
    this.pool.kill();
  }
}

/** The folder and the name a file is read under. */
export function splitFile(path: string): { folder: string; name: string } {
  return { folder: dirname(path), name: basename(path) };
}
