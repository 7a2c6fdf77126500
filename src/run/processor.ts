/**
 * What runs the stages over one document, wherever that happens: the local pool of worker
 * processes (worker-pool.ts), or a queue of workers on other machines. A processor gets a job —
 * the item, as data — reads the document through its own copy of the source, and gives back an
 * outcome; the run never holds a document's bytes. The run owns everything else (what to
 * process, the order, the sinks, the state), so a new processor touches no component.
 */
import type { DocumentResult, SourceItem } from "../core/records.js";

export interface DocumentJob {
  item: SourceItem;
  /**
   * The document the sinks already hold for this uri, under the same identity: when the bytes
   * read hash to it (a touched file, a copy over itself), the stages are not run.
   */
  skipIfDocumentId?: string;
  /**
   * Times the run state has recorded this item (this fingerprint) failing: a try after those is
   * a new job, so a processor that keeps outcomes (a queue) never answers it with the old failure.
   */
  failedBefore?: number;
}

export type JobOutcome =
  | { kind: "unchanged"; documentId: string }
  /** `documentId` is null when the bytes could not be read. */
  | { kind: "processed"; documentId: string | null; result: DocumentResult };

/** What a processor tells about a job while it runs. */
export interface JobHooks {
  /** Pages read so far of a document (at most twice a second): progress inside a long one. */
  progress?(pages: number): void;
}

export interface DocumentProcessor {
  /** Resolves with the outcome, or undefined when the document was abandoned (the run is stopping). */
  run(job: DocumentJob, hooks?: JobHooks): Promise<JobOutcome | undefined>;
  /** Stops everything now: documents in flight are abandoned. */
  kill(): void;
  /** Lets the workers exit once the run is over. */
  close(): Promise<void>;
  /** Documents the processor works on at once (the run keeps twice as many in flight). */
  readonly capacity: number;
  /** Documents the run keeps in flight, when not twice the capacity (a queue: jobs waiting in Redis for a fleet it cannot see). */
  readonly maxInFlight?: number;
  /**
   * The outcomes of these jobs are durable now (the run state recorded them at a checkpoint): a
   * processor that keeps outcomes for a restarted run (a queue keeps finished jobs) may drop them.
   */
  committed?(jobs: readonly DocumentJob[]): void;
  /** Highest resident memory of any worker so far, in bytes. */
  readonly peakWorkerBytes: number;
  /** Workers started, replacements for stopped ones included. */
  readonly started: number;
}

/**
 * The processor can take no more jobs (a queue whose Redis stayed unreachable): the run stops with
 * this error, after committing what it delivered, so the next run goes on from there.
 */
export class ProcessorFailed extends Error {
  override name = "ProcessorFailed";
}
