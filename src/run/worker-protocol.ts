/**
 * The messages between the run and its extraction workers (child processes, `serialization:
 * "advanced"`, so typed arrays and nested records cross as structured clones).
 */
import type { DocumentResult, SourceItem } from "../core/records.js";

/** A stage as the worker builds it again: its type (a built-in name or a module path) and validated options. */
export interface StageConfig {
  type: string;
  options: Record<string, unknown>;
}

export type ToWorker =
  | { type: "init"; baseDir: string; stages: StageConfig[]; maxPages: number }
  | { type: "document"; job: number; item: Omit<SourceItem, "read">; documentId: string; bytes: Uint8Array };

export type FromWorker =
  | { type: "ready" }
  | { type: "init_failed"; message: string }
  | { type: "warn"; message: string }
  | { type: "result"; job: number; result: DocumentResult };
