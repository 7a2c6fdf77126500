/**
 * The run: source → extraction workers → sinks, incremental and crash-safe.
 *
 * Items are pulled from the source only when there is room (at most two documents per worker
 * in flight: one extracting, one read and waiting), so a folder of 100,000 files is never
 * listed into memory. For each item the run state decides first, before the file is read,
 * whether it is unchanged under an unchanged config and already held by every sink: then it
 * is skipped. Otherwise its bytes are read and hashed (a touched file with the same bytes is
 * skipped too), and a worker runs the stages. Results reach the sinks in source order; every
 * few seconds the sinks make their writes durable and the state records them, in that order
 * (see `plugin.ts`, Sink). When the listing ran to its end, documents gone from the source are
 * pruned from the sinks that prune. In watch mode the source's changes follow, the same way,
 * until the run is stopped.
 */
import { DocumentError } from "../core/document-error.js";
import { mapOrdered } from "./ordered-concurrency.js";
import type { PreviousDelivery, RunSummary, Sink, Source } from "../core/plugin.js";
import { failedResult, loadDocument } from "./process-document.js";
import type { DocumentResult, ErrorCode, LoadedDocument, SourceChange, SourceItem } from "../core/records.js";
import { documentStatus } from "../text/page-facts.js";
import type { DocumentOutcome, KnownDocument, RunState } from "./run-state.js";

/** A sink of the run, with the key the run state knows it by. */
export interface RunSink {
  key: string;
  type: string;
  sink: Sink;
}

/** What runs the stages over one document: the worker pool. */
export interface DocumentProcessor {
  /** Resolves with the result, or undefined when the document was abandoned (the run is stopping). */
  run(input: LoadedDocument): Promise<DocumentResult | undefined>;
  /** Stops everything now: documents in flight are abandoned. */
  kill(): void;
  /** Lets the workers exit once the run is over. */
  close(): Promise<void>;
  /** Highest resident memory of any worker so far, in bytes. */
  readonly peakWorkerBytes: number;
  /** Workers started, replacements for stopped ones included. */
  readonly started: number;
}

export interface Pipeline {
  source: Source;
  sinks: RunSink[];
  processor: DocumentProcessor;
  state: RunState;
  /** Hash of what shapes a document's result: pagestream's version, the stages and their options. */
  configHash: string;
  /** `configHash` with the limits: a document stopped by a limit is tried again when the limits change. */
  limitsHash: string;
  workers: number;
  maxFileBytes: number;
  shutdownTimeoutSeconds: number;
}

/** What a person watching the run is told; every hook is optional. */
export interface RunEvents {
  /** A listed item was skipped as unchanged. */
  onSkipped?(item: SourceItem): void;
  /** A document's result reached the sinks that needed it. */
  onResult?(result: DocumentResult, item: SourceItem): void;
  /** A document gone from the source was pruned. */
  onRemoved?(uri: string): void;
  /** The listing is done (and pruned); watch mode waits for changes now. */
  onWatching?(summary: RunSummary): void;
  /** The run is stopping: no new documents are taken. */
  onStopping?(inFlight: number): void;
  warn?(message: string): void;
}

export interface RunOptions {
  /** Aborting it stops the run: no new documents; those in flight get shutdownTimeoutSeconds. */
  stop?: AbortSignal;
  /** Follow the source's changes after the listing, until stopped. */
  watch?: boolean;
  events?: RunEvents;
  /** Filled in as the run goes (for a progress display); returned at the end. */
  summary?: RunSummary;
}

/** Codes of failures that a change of the limits may undo. */
const LIMIT_CODES: ReadonlySet<ErrorCode> = new Set(["too_large", "timeout", "resource_limit"]);
/** Codes of failures that say nothing about the content: tried again on every run. */
const RETRY_CODES: ReadonlySet<ErrorCode> = new Set(["read_failed"]);
/**
 * How often results are made durable and recorded: a kill loses at most this much work, and
 * each checkpoint costs an fsync per sink file (a commit per document would cost one each).
 */
const CHECKPOINT_MS = 2_000;
const CHECKPOINT_CHANGES = 2_000;

type Outcome =
  | { kind: "skipped"; item: SourceItem }
  | { kind: "abandoned"; item: SourceItem }
  | { kind: "result"; item: SourceItem; result: DocumentResult; contentHash: string | null; targets: RunSink[]; known?: KnownDocument; replace: boolean }
  | { kind: "remove"; uri: string };

export function emptySummary(): RunSummary {
  return { listed: 0, documents: 0, ok: 0, failed: 0, failedByCode: {}, skipped: 0, removed: 0, scanDocuments: 0, pages: 0, emptyPages: 0, chunks: 0, seconds: 0, complete: false, interrupted: false };
}

export async function runPipeline(pipeline: Pipeline, options: RunOptions = {}): Promise<RunSummary> {
  const started = process.hrtime.bigint();
  const { state, sinks } = pipeline;
  const events = options.events ?? {};
  const stop = options.stop ?? new AbortController().signal;
  const summary = options.summary ?? emptySummary();
  let inFlight = 0;
  let lastCheckpoint = Date.now();
  let watching = false;

  const checkpoint = async () => {
    const tokens = new Map<string, { type: string; token: unknown }>();
    for (const s of sinks) tokens.set(s.key, { type: s.type, token: await s.sink.checkpoint() });
    state.commit(tokens);
    lastCheckpoint = Date.now();
  };
  const expectedConfig = (known: KnownDocument) => (known.errorCode && LIMIT_CODES.has(known.errorCode) ? pipeline.limitsHash : pipeline.configHash);

  const prepare = async (item: SourceItem): Promise<Outcome> => {
    summary.listed++;
    state.seen(item.uri);
    const known = state.lookup(item.uri);
    const current = known !== undefined && known.configHash === expectedConfig(known) && !(known.errorCode && RETRY_CODES.has(known.errorCode));
    const missing = current ? sinks.filter((s) => !known.sinks.has(s.key)) : sinks;
    if (current && known.fingerprint === item.fingerprint && missing.length === 0) return { kind: "skipped", item };
    const outcome = (result: DocumentResult, contentHash: string | null, targets = sinks, replace = true): Outcome => ({ kind: "result", item, result, contentHash, targets, known, replace });
    if (item.size > pipeline.maxFileBytes) {
      const error = new DocumentError("too_large", `the file has ${item.size} bytes, more than max_file_bytes (${pipeline.maxFileBytes})`);
      return outcome(failedResult(item.uri, error), null);
    }
    let input: LoadedDocument;
    try {
      input = await loadDocument(item);
    } catch (err) {
      return outcome(failedResult(item.uri, err), null);
    }
    let targets = sinks;
    let replace = true;
    if (current && known.contentHash === input.id) {
      // The same bytes under a new fingerprint (a touched or copied-over file).
      state.refingerprint(item.uri, item.fingerprint, item.size, item.mtimeMs);
      if (missing.length === 0) return { kind: "skipped", item };
      targets = missing;
      replace = false;
    }
    const result = await pipeline.processor.run(input);
    return result ? outcome(result, input.id, targets, replace) : { kind: "abandoned", item };
  };

  const remove = async (uri: string, held: Held | undefined) => {
    if (!held) return;
    const pruned: string[] = [];
    for (const s of sinks) {
      if (!s.sink.remove || !held.sinks.has(s.key)) continue;
      await s.sink.remove(uri, previousDelivery(held));
      pruned.push(s.key);
    }
    if (pruned.length === 0) return;
    state.removed(uri, pruned);
    summary.removed++;
    events.onRemoved?.(uri);
  };

  const deliver = async (outcome: Outcome) => {
    if (outcome.kind === "skipped") {
      summary.skipped++;
      events.onSkipped?.(outcome.item);
    } else if (outcome.kind === "remove") {
      await remove(outcome.uri, state.lookup(outcome.uri));
    } else if (outcome.kind === "result") {
      const { item, result, known, targets } = outcome;
      for (const s of targets) {
        await s.sink.write(result, known?.sinks.has(s.key) ? previousDelivery(known) : undefined);
      }
      state.delivered(item.uri, documentOutcome(item, result, outcome.contentHash, pipeline), targets.map((s) => s.key), outcome.replace);
      count(summary, result);
      events.onResult?.(result, item);
    }
    if (watching || state.uncommitted >= CHECKPOINT_CHANGES || Date.now() - lastCheckpoint >= CHECKPOINT_MS) await checkpoint();
  };

  const track = <T>(work: (x: T) => Promise<Outcome>) => async (x: T) => {
    inFlight++;
    try {
      return await work(x);
    } finally {
      inFlight--;
    }
  };

  let killTimer: NodeJS.Timeout | undefined;
  const onStop = () => {
    events.onStopping?.(inFlight);
    killTimer = setTimeout(() => pipeline.processor.kill(), pipeline.shutdownTimeoutSeconds * 1000);
  };
  stop.addEventListener("abort", onStop, { once: true });
  const concurrency = pipeline.workers * 2;
  try {
    // Started before the listing, so that nothing changing during it is missed.
    const changes = options.watch ? pipeline.source.watch?.(stop) : undefined;
    if (options.watch && !changes) throw new Error("this source cannot watch for changes");
    const listing = untilAborted(pipeline.source.list(), stop);
    for await (const outcome of mapOrdered(listing, concurrency, track(prepare))) await deliver(outcome);
    summary.complete = listing.finished;
    await checkpoint();
    if (summary.complete && sinks.some((s) => s.sink.remove)) {
      // An empty folder to watch is normal; an empty nightly batch usually means an unmounted source.
      if (summary.listed === 0) {
        if (!options.watch) events.warn?.("prune skipped: the source listed no documents (is it mounted?)");
      } else {
        for (const gone of state.gone()) await remove(gone.uri, gone);
        await checkpoint();
      }
    }
    if (changes && !stop.aborted) {
      watching = true;
      events.onWatching?.({ ...summary, seconds: elapsed(started) });
      const work = (change: SourceChange): Promise<Outcome> => (change.type === "upsert" ? prepare(change.item) : Promise.resolve({ kind: "remove", uri: change.uri }));
      for await (const outcome of mapOrdered(untilAborted(changes, stop), concurrency, track(work))) await deliver(outcome);
      await checkpoint();
    }
  } catch (err) {
    pipeline.processor.kill();
    await Promise.allSettled(sinks.map((s) => s.sink.abort()));
    throw err;
  } finally {
    clearTimeout(killTimer);
    stop.removeEventListener("abort", onStop);
  }
  summary.interrupted = stop.aborted;
  summary.seconds = elapsed(started);
  for (const s of sinks) await s.sink.close(summary);
  return summary;
}

/** What the sinks hold of a document: enough to withdraw or replace it. */
type Held = Pick<KnownDocument, "contentHash" | "sinks">;

/** The delivery a sink is told it replaces or withdraws. */
function previousDelivery(held: Held): PreviousDelivery {
  return held.contentHash ? { documentId: held.contentHash } : {};
}

function documentOutcome(item: SourceItem, result: DocumentResult, contentHash: string | null, pipeline: Pipeline): DocumentOutcome {
  const base = { fingerprint: item.fingerprint, size: item.size, mtimeMs: item.mtimeMs, contentHash };
  if (result.status === "failed") {
    const configHash = LIMIT_CODES.has(result.error.code) ? pipeline.limitsHash : pipeline.configHash;
    return { ...base, configHash, status: "failed", errorCode: result.error.code, error: result.error.message, pages: 0, chunks: 0 };
  }
  return { ...base, configHash: pipeline.configHash, status: documentStatus(result.document), errorCode: null, error: null, pages: result.pages.length, chunks: result.chunks.length };
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

function elapsed(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/**
 * The items of `source` until `signal` aborts; a pull that is waiting (a watcher with nothing
 * new) ends at once. `finished` says whether the source itself ran to its end.
 */
function untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncIterable<T> & { finished: boolean } {
  const out = {
    finished: false,
    async *[Symbol.asyncIterator]() {
      const iterator = source[Symbol.asyncIterator]();
      const aborted = new Promise<"aborted">((resolve) => {
        if (signal.aborted) resolve("aborted");
        signal.addEventListener("abort", () => resolve("aborted"), { once: true });
      });
      try {
        while (true) {
          const next = await Promise.race([iterator.next(), aborted]);
          if (next === "aborted") return;
          if (next.done) {
            out.finished = true;
            return;
          }
          yield next.value;
        }
      } finally {
        // Not awaited: a pull still waiting on the source would hold the run open.
        void iterator.return?.();
      }
    },
  };
  return out;
}
