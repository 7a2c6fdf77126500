/**
 * What a run does with one listed item, decided from data alone — the item, what the run state
 * knows of its uri, the pipeline's identity and its sinks — before any byte is read (`planItem`),
 * and again once a processor has seen the bytes (`settleOutcome`). Pure functions: the whole
 * skip/process policy is testable without a source, a worker or a sink.
 */
import { DocumentError } from "../core/document-error.js";
import type { SourceItem } from "../core/records.js";
import { LIMIT_CODES, retriesNow } from "./error-classes.js";
import type { PipelineIdentity } from "./identity.js";
import type { DocumentJob, JobOutcome } from "./processor.js";
import type { KnownDocument } from "./run-state.js";

export interface PlanContext {
  identity: Pick<PipelineIdentity, "configHash" | "limitsHash">;
  /** Keys of the pipeline's sinks. */
  sinks: readonly string[];
  maxFileBytes: number;
  /** Process every document again, whatever the run state knows (`pagestream run --reprocess`). */
  reprocess?: boolean;
}

export type Plan =
  /** Unchanged, under the same identity, and every sink holds it: nothing is read. */
  | { action: "skip" }
  /** Refused before reading (larger than max_file_bytes). */
  | { action: "fail"; error: DocumentError }
  /** Read and processed: `job` goes to a processor; `settleOutcome` decides the sinks after. */
  | { action: "process"; job: DocumentJob; known: KnownDocument | undefined; current: boolean; missing: readonly string[] };

/** The identity a remembered outcome must match: a limit failure is remembered under the limits. */
function expectedHash(known: KnownDocument, identity: PlanContext["identity"]): string {
  return known.errorCode && LIMIT_CODES.has(known.errorCode) ? identity.limitsHash : identity.configHash;
}

export function planItem(item: SourceItem, known: KnownDocument | undefined, context: PlanContext): Plan {
  if (item.problem) return { action: "fail", error: new DocumentError(item.problem.code, item.problem.message) };
  const current =
    !context.reprocess && known !== undefined && known.configHash === expectedHash(known, context.identity) && !(known.errorCode && retriesNow(known.errorCode, known.attempts));
  const missing = current ? context.sinks.filter((s) => !known.sinks.has(s)) : context.sinks;
  if (current && known.fingerprint === item.fingerprint && missing.length === 0) return { action: "skip" };
  if (item.size > context.maxFileBytes) {
    return { action: "fail", error: new DocumentError("too_large", `the file has ${item.size} bytes, more than max_file_bytes (${context.maxFileBytes})`) };
  }
  // A touched or copied-over file may hold the same bytes: the processor compares before it runs the stages.
  const skipIf = current && missing.length === 0 && known.documentId ? known.documentId : undefined;
  const failedBefore = known?.errorCode && known.fingerprint === item.fingerprint ? known.attempts : 0;
  const job: DocumentJob = { item, ...(skipIf ? { skipIfDocumentId: skipIf } : {}), ...(failedBefore ? { failedBefore } : {}) };
  return { action: "process", job, known, current, missing };
}

/** Where a processed document goes. */
export type Settled =
  /** The same bytes as the sinks hold: nothing is written, the state learns the new fingerprint. */
  | { kind: "refingerprint" }
  /** Written to `targets`; with `replace` the document is a new version, and sinks not among the targets no longer hold it. */
  | { kind: "deliver"; targets: readonly string[]; replace: boolean };

export function settleOutcome(plan: Extract<Plan, { action: "process" }>, outcome: JobOutcome, sinks: readonly string[]): Settled {
  if (outcome.kind === "unchanged") return { kind: "refingerprint" };
  const same = plan.current && outcome.documentId !== null && outcome.documentId === plan.known?.documentId;
  if (same) return plan.missing.length ? { kind: "deliver", targets: plan.missing, replace: false } : { kind: "refingerprint" };
  return { kind: "deliver", targets: sinks, replace: true };
}
