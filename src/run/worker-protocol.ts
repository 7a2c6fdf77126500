/**
 * The messages between the run and its extraction workers (child processes, `serialization:
 * "advanced"`, so nested records cross as structured clones). The run sends items, never bytes:
 * a worker builds the source and the stages again from the pipeline's validated config and
 * reads each document itself.
 */
import type { ResultNeeds } from "../core/plugin.js";
import type { JobLimits } from "./process-document.js";
import type { DocumentJob, JobOutcome } from "./processor.js";
import type { ResultPart } from "./result-parts.js";

/** A component as a worker builds it again: its type (a built-in name or a module path) and validated options. */
export interface ComponentConfig {
  type: string;
  options: Record<string, unknown>;
}

/** What a worker needs to build everything it runs: plain JSON, the same on any machine. */
export interface WorkerSetup {
  /** Folder that relative paths (the source's folder, module-path stages) resolve against. */
  baseDir: string;
  source: ComponentConfig;
  stages: ComponentConfig[];
  limits: JobLimits;
  needs: ResultNeeds;
}

export type ToWorker = { type: "init"; setup: WorkerSetup } | { type: "job"; id: number; job: DocumentJob };

export type FromWorker =
  | { type: "ready" }
  | { type: "init_failed"; message: string }
  | { type: "warn"; message: string }
  /** Pages the first stage has read of a job's document so far (at most every PROGRESS_MS). */
  | { type: "progress"; id: number; pages: number }
  /**
   * Records of a job's document, sent as the stages emit them, in order, ahead of its outcome
   * (result-parts.ts): the run puts them in front of the outcome's own records.
   */
  | { type: "records"; id: number; part: ResultPart }
  /** `last`: the worker ends after it (pdf.js failed beyond recovery), and takes no more jobs. */
  | { type: "outcome"; id: number; outcome: JobOutcome; last?: boolean };

/** Shortest time between two progress messages about one document. */
export const PROGRESS_MS = 500;
