/**
 * A document as a BullMQ job: what the coordinator adds, the id it adds it under, and the
 * outcome a worker gives back.
 *
 * The id is derived from everything the outcome depends on — the item (uri and fingerprint),
 * the pipeline's identity, the document the sinks already hold and the failures already
 * recorded — so the same document added again is the same job: BullMQ ignores the second add,
 * and a restarted coordinator finds the outcome of a job finished before it was killed instead
 * of having it done again.
 *
 * Outcomes are JSON (the same on any Node version, unlike V8's serialization), compressed: one
 * is stored twice in Redis until the coordinator has it (in the job and in the queue's event
 * stream).
 */
import { gunzipSync, gzipSync } from "node:zlib";
import type { ResultNeeds } from "../../core/plugin.js";
import type { SourceItem } from "../../core/records.js";
import { hash, type PipelineIdentity } from "../identity.js";
import type { DocumentJob, JobOutcome } from "../processor.js";

/**
 * What a worker's outcome depends on besides the item: pagestream's version, the stages and
 * their options (configHash), the limits (limitsHash), and whether the sinks read per-line
 * geometry. A worker takes only jobs of its own identity.
 */
export interface QueueIdentity extends PipelineIdentity {
  lines: boolean;
}

export function queueIdentity(identity: PipelineIdentity, needs: ResultNeeds): QueueIdentity {
  return { version: identity.version, configHash: identity.configHash, limitsHash: identity.limitsHash, lines: needs.lines };
}

/** Where two identities differ, in words; undefined when they are the same. */
export function identityDifference(theirs: QueueIdentity, mine: QueueIdentity): string | undefined {
  const name = (i: QueueIdentity) => `pagestream ${i.version}, config ${i.configHash.slice(0, 12)}`;
  if (theirs.version !== mine.version || theirs.configHash !== mine.configHash) return `${name(theirs)} ≠ this worker's ${name(mine)}`;
  if (theirs.limitsHash !== mine.limitsHash) return `${name(theirs)} with other limits (timeout_seconds, max_worker_memory_mb, max_pages or max_file_bytes) than this worker's`;
  if (theirs.lines !== mine.lines) return `${name(theirs)} whose sinks ${theirs.lines ? "read" : "do not read"} per-line geometry (include_lines), unlike this worker's`;
  return undefined;
}

/** A job's data in Redis. */
export interface QueueJobData {
  item: SourceItem;
  skipIfDocumentId?: string;
  identity: QueueIdentity;
  /** Set by the worker on a failed try: the outcome (an error record) the coordinator delivers if it stays failed. */
  outcome?: EncodedOutcome;
}

export function jobData(job: DocumentJob, identity: QueueIdentity): QueueJobData {
  return { item: job.item, ...(job.skipIfDocumentId ? { skipIfDocumentId: job.skipIfDocumentId } : {}), identity };
}

/**
 * The job's id. BullMQ refuses ids that are integers or hold ":", hence the letter in front of
 * the hex digest.
 */
export function jobIdOf(job: DocumentJob, identity: QueueIdentity): string {
  const { uri, fingerprint } = job.item;
  return "d" + hash({ uri, fingerprint, identity, skip: job.skipIfDocumentId ?? null, failedBefore: job.failedBefore ?? 0 }).slice(0, 40);
}

/**
 * zlib's default level: a page's outcome (a few KB of JSON) compresses in a fraction of a
 * millisecond, and level 1 left it 25 % larger in Redis (bench/queue.mjs).
 */
const GZIP_LEVEL = 6;

/** An outcome as it is stored in Redis: gzipped JSON, in base64 (BullMQ stores return values as JSON text). */
export interface EncodedOutcome {
  gzip: string;
}

export function encodeOutcome(outcome: JobOutcome): EncodedOutcome {
  return { gzip: gzipSync(JSON.stringify(outcome), { level: GZIP_LEVEL }).toString("base64") };
}

export function decodeOutcome(encoded: EncodedOutcome): JobOutcome {
  return JSON.parse(gunzipSync(Buffer.from(encoded.gzip, "base64")).toString("utf8")) as JobOutcome;
}

export function isEncodedOutcome(value: unknown): value is EncodedOutcome {
  return typeof value === "object" && value !== null && typeof (value as EncodedOutcome).gzip === "string";
}
