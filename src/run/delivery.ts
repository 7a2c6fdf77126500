/**
 * The writing side of a run: results reach the sinks in source order, removals and prunes go
 * to the sinks that prune, and every few seconds the sinks make their writes durable and the
 * run state records what they hold, in that order (see plugin.ts, Sink), so a process killed
 * at any moment restarts from the last checkpoint. The run counts everything it delivers in
 * its summary. One writer: only the process that owns the run folder's lock delivers.
 */
import type { PreviousDelivery, RunSummary, Sink } from "../core/plugin.js";
import type { DocumentResult, SourceItem } from "../core/records.js";
import { documentStatus } from "../text/page-facts.js";
import { LIMIT_CODES } from "./error-classes.js";
import type { PipelineIdentity } from "./identity.js";
import type { DocumentJob } from "./processor.js";
import type { DocumentOutcome, KnownDocument, RunState } from "./run-state.js";

/** A sink of the run, with the key the run state knows it by. */
export interface RunSink {
  key: string;
  type: string;
  sink: Sink;
}

/**
 * How often results are made durable and recorded: a kill loses at most this much work, and
 * each checkpoint costs an fsync per sink file (a commit per document would cost one each).
 */
const CHECKPOINT_MS = 2_000;
const CHECKPOINT_CHANGES = 2_000;

/** What the sinks hold of a document: enough to withdraw or replace it. */
type Held = Pick<KnownDocument, "documentId" | "sinks">;

export function emptySummary(): RunSummary {
  return { listed: 0, documents: 0, ok: 0, failed: 0, failedByCode: {}, skipped: 0, removed: 0, filtered: 0, filteredBy: {}, scanDocuments: 0, pages: 0, emptyPages: 0, chunks: 0, seconds: 0, complete: false, interrupted: false };
}

export class Delivery {
  private lastCheckpoint = Date.now();
  /** Jobs whose outcomes were applied since the last checkpoint. */
  private uncommittedJobs: DocumentJob[] = [];
  /** Told, after each checkpoint, which jobs' outcomes it made durable. */
  onCommit?: (jobs: readonly DocumentJob[]) => void;
  /** Watching: every change is committed at once (they come one at a time, and someone waits for them). */
  eager = false;

  constructor(
    private readonly state: RunState,
    readonly sinks: readonly RunSink[],
    private readonly identity: PipelineIdentity,
    readonly summary: RunSummary,
  ) {}

  /** What the run state knows of `uri`, this run's uncommitted changes included. */
  lookup(uri: string): KnownDocument | undefined {
    return this.state.lookup(uri);
  }

  get sinkKeys(): string[] {
    return this.sinks.map((s) => s.key);
  }

  /**
   * Writes a result to the sinks named by `targets`; with `replace`, the others no longer hold it.
   * Says whether the document is new to the sinks or replaces a version they held.
   */
  async deliver(item: SourceItem, result: DocumentResult, documentId: string | null, targets: readonly string[], replace: boolean): Promise<"added" | "replaced"> {
    const known = this.state.lookup(item.uri);
    // Sinks show where the document is under the source's root beside its uri.
    const placed: DocumentResult = typeof item.path === "string" ? { ...result, path: item.path } : result;
    for (const s of this.sinks) {
      if (!targets.includes(s.key)) continue;
      await s.sink.write(placed, known?.sinks.has(s.key) ? previousDelivery(known) : undefined);
    }
    this.state.delivered(item.uri, outcomeOf(item, result, documentId, this.identity, known), [...targets], replace);
    count(this.summary, result);
    await this.maybeCheckpoint();
    return known && known.sinks.size > 0 ? "replaced" : "added";
  }

  /** A processor's outcome for this job is being applied: the next checkpoint makes it durable. */
  processed(job: DocumentJob): void {
    this.uncommittedJobs.push(job);
  }

  /** The listing met an item (so it is not gone). */
  seen(item: SourceItem): void {
    this.summary.listed++;
    this.state.seen(item.uri);
  }

  /** Skipped as unchanged; a new fingerprint (the same bytes) is remembered. */
  async skipped(item: SourceItem, refingerprint: boolean): Promise<void> {
    if (refingerprint) this.state.refingerprint(item.uri, item.fingerprint, item.size, item.mtimeMs);
    this.summary.skipped++;
    await this.maybeCheckpoint();
  }

  /** The document at `uri` is gone from the source: withdrawn from the sinks that prune. Returns whether any did. */
  async remove(uri: string, held: Held | undefined = this.state.lookup(uri)): Promise<boolean> {
    if (!held) return false;
    const pruned: string[] = [];
    for (const s of this.sinks) {
      if (!s.sink.remove || !held.sinks.has(s.key)) continue;
      await s.sink.remove(uri, previousDelivery(held));
      pruned.push(s.key);
    }
    if (pruned.length === 0) return false;
    this.state.removed(uri, pruned);
    this.summary.removed++;
    await this.maybeCheckpoint();
    return true;
  }

  /** After a complete listing: every document it did not meet is removed. Returns the uris removed. */
  async prune(): Promise<string[]> {
    await this.checkpoint();
    const removed: string[] = [];
    for (const gone of this.state.gone()) if (await this.remove(gone.uri, gone)) removed.push(gone.uri);
    await this.checkpoint();
    return removed;
  }

  get prunes(): boolean {
    return this.sinks.some((s) => s.sink.remove);
  }

  /** Makes every sink's writes durable, then records them and the sinks' tokens in the run state. */
  async checkpoint(): Promise<void> {
    const tokens = new Map<string, { type: string; token: unknown }>();
    for (const s of this.sinks) tokens.set(s.key, { type: s.type, token: await s.sink.checkpoint() });
    this.state.commit(tokens);
    this.lastCheckpoint = Date.now();
    const jobs = this.uncommittedJobs;
    this.uncommittedJobs = [];
    if (jobs.length) this.onCommit?.(jobs);
  }

  private async maybeCheckpoint(): Promise<void> {
    if (this.eager || this.state.uncommitted >= CHECKPOINT_CHANGES || Date.now() - this.lastCheckpoint >= CHECKPOINT_MS) await this.checkpoint();
  }

  async close(summary: RunSummary): Promise<void> {
    for (const s of this.sinks) await s.sink.close(summary);
  }

  /** The run failed: every sink drops what it wrote since the last checkpoint. */
  async abort(): Promise<void> {
    await Promise.allSettled(this.sinks.map((s) => s.sink.abort()));
  }
}

/** The delivery a sink is told it replaces or withdraws. */
function previousDelivery(held: Held): PreviousDelivery {
  return held.documentId ? { documentId: held.documentId } : {};
}

function outcomeOf(item: SourceItem, result: DocumentResult, documentId: string | null, identity: PipelineIdentity, known: KnownDocument | undefined): DocumentOutcome {
  const base = { fingerprint: item.fingerprint, size: item.size, mtimeMs: item.mtimeMs, documentId };
  if (result.status === "failed") {
    const { code } = result.error;
    const configHash = LIMIT_CODES.has(code) ? identity.limitsHash : identity.configHash;
    // The same failure again on the same bytes: one more attempt in a row.
    const again = known?.errorCode === code && known.fingerprint === item.fingerprint;
    return { ...base, configHash, status: "failed", errorCode: code, error: result.error.message, attempts: again ? known.attempts + 1 : 1, pages: 0, chunks: 0 };
  }
  return { ...base, configHash: identity.configHash, status: documentStatus(result.document), errorCode: null, error: null, attempts: 0, pages: result.pages.length, chunks: result.chunks.length };
}

function count(summary: RunSummary, result: DocumentResult): void {
  summary.documents++;
  if (result.status === "failed") {
    summary.failed++;
    summary.failedByCode[result.error.code] = (summary.failedByCode[result.error.code] ?? 0) + 1;
    return;
  }
  summary.ok++;
  if (result.document.scan) summary.scanDocuments++;
  summary.pages += result.pages.length;
  summary.emptyPages += result.pages.filter((p) => p.empty).length;
  summary.chunks += result.chunks.length;
}
