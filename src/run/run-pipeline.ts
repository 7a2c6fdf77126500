/**
 * A run's whole life, in one place that the CLI (and a queue coordinator, a server) calls:
 * lock the run folder → open the run state → build the source and the sinks → plan, dispatch
 * and deliver every listed document → prune → (watch) → report → close.
 *
 * Items are pulled from the source only when there is room (two documents per worker in
 * flight: one extracting, one waiting), so a folder of 100,000 files is never listed into
 * memory. Each item is planned first, before anything is read (plan.ts): unchanged under the
 * same identity and held by every sink, it is skipped. Otherwise it goes as data to the
 * processor, whose worker reads and hashes the bytes itself; the run never holds a document.
 * Results reach the sinks in source order, through the delivery (delivery.ts), which makes
 * them durable and records them every few seconds.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import type { RunContext, RunOrigin, RunSummary, SinkContext, Source } from "../core/plugin.js";
import { describeError } from "../core/document-error.js";
import { ensureFolder } from "../core/output-folder.js";
import type { DocumentResult, SourceChange, SourceItem } from "../core/records.js";
import { EXIT } from "../exit-codes.js";
import type { PipelineConfig } from "../pipeline/config.js";
import { checkEnvironment, formatEnvironmentIssue } from "../pipeline/environment-check.js";
import { linkedOutputCollisions } from "../pipeline/output-collisions.js";
import { STATE_FILE } from "../pipeline/run-folder-files.js";
import { Delivery, emptySummary, type RunSink } from "./delivery.js";
import { UNREACHABLE_STOP } from "./error-classes.js";
import { pipelineIdentity, type PipelineIdentity } from "./identity.js";
import { mapOrdered } from "./ordered-concurrency.js";
import { planItem, settleOutcome } from "./plan.js";
import { failedResult } from "./process-document.js";
import { ProcessorFailed, type DocumentJob, type DocumentProcessor } from "./processor.js";
import { lockRunFolder } from "./run-lock.js";
import { RunRefused } from "./run-refused.js";
import { writeRunReport, type RunReport } from "./run-report.js";
import { RunState } from "./run-state.js";
import { sinkKeys } from "./sink-keys.js";
import { lockSinkFiles, type SinkLocks } from "./sink-locks.js";
import { WorkerPool } from "./worker-pool.js";
import type { WorkerSetup } from "./worker-protocol.js";
import { workerSetup } from "./worker-setup.js";

/** What a person watching the run is told; every hook is optional. */
export interface RunEvents {
  /** A listed item was skipped as unchanged. */
  onSkipped?(item: SourceItem): void;
  /**
   * A document's result reached the sinks that needed it: `added` (new to them) or `replaced` (a
   * version they held); `watching` when it came from the source's changes after the listing.
   */
  onResult?(result: DocumentResult, item: SourceItem, delivered: { change: "added" | "replaced"; watching: boolean }): void;
  /** Pages read so far of a document in flight (a long one reports as it goes). */
  onDocumentProgress?(item: SourceItem, pages: number): void;
  /** A document gone from the source was pruned. */
  onRemoved?(uri: string): void;
  /** The source's listing passed over an entry (a filter, a hidden file, a link). */
  onFiltered?(entry: { uri: string; reason: string }): void;
  /** The listing is done (and pruned); watch mode waits for changes now. */
  onWatching?(summary: RunSummary): void;
  /** The run is stopping: no new documents are taken. */
  onStopping?(inFlight: number): void;
  /** The run is set up (lock taken, sinks open): the source can be counted for a progress display. */
  onStarted?(run: { source: Source; workers: number }): void;
  warn?(message: string): void;
}

/** Why a run was stopped, given as the stop signal's `reason`. */
export interface StopReason {
  signal: string;
  exitCode: number;
}

export interface RunOptions {
  /** The pipeline file, as the report names it. */
  pipelineFile: string;
  /**
   * Aborting it stops the run: no new documents; those in flight get shutdown_timeout_seconds.
   * Its reason (a StopReason) names the signal and the exit code in the report.
   */
  stop?: AbortSignal;
  /**
   * Aborting it stops the documents in flight at once (they are done again by the next run);
   * what was delivered is committed, the report written and the lock released as on any stop.
   */
  stopNow?: AbortSignal;
  /** Follow the source's changes after the listing, until stopped. */
  watch?: boolean;
  /** Process every document again, as if the run state knew none of them (it is kept, and updated). */
  reprocess?: boolean;
  events?: RunEvents;
  /** Filled in as the run goes (for a progress display). */
  summary?: RunSummary;
  /** What runs the stages: the local pool of worker processes unless given (a queue, in a coordinator). */
  processor?(setup: WorkerSetup, identity: PipelineIdentity): DocumentProcessor | Promise<DocumentProcessor>;
}

export interface RunOutcome {
  summary: RunSummary;
  exitCode: number;
  report: RunReport;
  /** Documents whose last outcome is a failure: this run's, and earlier ones left unchanged since. */
  failing: number;
}

export async function runPipeline(config: PipelineConfig, context: RunContext, options: RunOptions): Promise<RunOutcome> {
  const startedAt = new Date();
  const { settings } = config;
  const events = options.events ?? {};
  const stop = options.stop ?? new AbortController().signal;
  const summary = options.summary ?? emptySummary();
  const runFolder = resolve(config.baseDir, settings.run_folder);
  const report = (exitCode: number, extra: Partial<RunReport> = {}, processor?: DocumentProcessor): RunReport => ({
    pipeline: resolve(options.pipelineFile),
    pid: process.pid,
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    exit_code: exitCode,
    ...extra,
    workers: processor?.capacity ?? 0,
    workers_started: processor?.started ?? 0,
    summary,
    pages_per_second: summary.seconds > 0 ? Math.round((summary.pages / summary.seconds) * 10) / 10 : 0,
    peak_rss_mib: { main: Math.round(process.resourceUsage().maxRSS / 1024), worker: Math.round((processor?.peakWorkerBytes ?? 0) / 1048576) },
  });
  const identity = await pipelineIdentity(config);
  let source: Source;
  try {
    // The source first: one that cannot be reached (a missing bucket) stops the run before anything is written.
    const skipped = (entry: { uri: string; reason: string }) => {
      summary.filtered++;
      summary.filteredBy[entry.reason] = (summary.filteredBy[entry.reason] ?? 0) + 1;
      events.onFiltered?.(entry);
    };
    // What the components need from the machine (a program, a language pack): refused before anything opens.
    const missing = [...(await checkEnvironment(config, context)), ...(await linkedOutputCollisions(config, options.pipelineFile))];
    if (missing.length) throw new RunRefused(missing.map((issue) => formatEnvironmentIssue(issue, options.pipelineFile)).join("; "));
    source = await config.source.spec.create(config.source.options, { ...context, purpose: "run", skipped });
    if (options.watch && !source.watch) throw new RunRefused(`the ${config.source.type} source cannot watch for changes`);
  } catch (err) {
    // A summary of an earlier run must not stay to say all went well: replaced, if no other run holds the folder.
    await reportFatalIfFree(runFolder, settings.run_folder, report(EXIT.fatal, { error: describeError(err) }));
    throw err;
  }
  await ensureFolder(runFolder, folderName(settings.run_folder));
  const lock = await lockRunFolder(runFolder, folderName(settings.run_folder));
  let sinkLocks: SinkLocks | undefined;
  let state: RunState | undefined;
  let delivery: Delivery | undefined;
  let processor: DocumentProcessor | undefined;
  // A sink's error outside the runner's calls (a timer's commit) stops the run as one thrown from a write does.
  const sinkFailed = new AbortController();
  try {
    sinkLocks = await lockSinkFiles(config, resolve(options.pipelineFile));
    state = await RunState.open(join(runFolder, STATE_FILE));
    const sinks = await openSinks(config, { ...context, fail: (err) => sinkFailed.abort(err) }, state, options.pipelineFile);
    delivery = new Delivery(state, sinks, identity, summary);
    const committing = delivery;
    committing.onCommit = (jobs) => processor?.committed?.(jobs);
    const setup = workerSetup(config);
    const workers = settings.concurrency ?? availableParallelism();
    processor = options.processor
      ? await options.processor(setup, identity)
      : WorkerPool.start({ workers, setup, timeoutSeconds: settings.timeout_seconds, maxWorkerMemoryMb: settings.max_worker_memory_mb, warn: context.warn });
    const running = processor;
    options.stopNow?.addEventListener("abort", () => running.kill(), { once: true });
    sinkFailed.signal.addEventListener("abort", () => running.kill(), { once: true });
    events.onStarted?.({ source, workers: processor.capacity });
    await drive(source, delivery, processor, identity, config, { stop, sinkFailed: sinkFailed.signal, watch: options.watch === true, reprocess: options.reprocess === true, events });
    await processor.close();
    const reason = stop.aborted ? (stop.reason as StopReason | undefined) : undefined;
    const failures = state.failures();
    // Failures that remain — this run's, or earlier ones still unchanged — say so in the exit code.
    const exitCode = reason?.exitCode ?? (failures.length > 0 ? EXIT.failedDocuments : EXIT.ok);
    const done = report(exitCode, reason ? { signal: reason.signal } : {}, processor);
    state.finishRun(done);
    await writeRunReport(runFolder, done, failures);
    return { summary, exitCode, report: done, failing: failures.length };
  } catch (err) {
    processor?.kill();
    // The processor gave out (its queue is gone), not a sink: what was delivered is sound and kept.
    if (err instanceof ProcessorFailed) await delivery?.checkpoint().catch(() => {});
    await delivery?.abort();
    const failed = report(EXIT.fatal, { error: describeError(err) }, processor);
    await writeRunReport(runFolder, failed, state?.failures() ?? []).catch(() => {});
    throw err;
  } finally {
    state?.close();
    await sinkLocks?.release();
    await lock.release();
  }
}

/** "out" → "out/", as messages name a folder. */
function folderName(folder: string): string {
  return folder.endsWith("/") ? folder : folder + "/";
}

/** Writes a fatal run's report over an earlier one, when the run folder exists and no other run holds it. */
async function reportFatalIfFree(runFolder: string, name: string, failed: RunReport): Promise<void> {
  if (!existsSync(runFolder)) return;
  let lock;
  try {
    lock = await lockRunFolder(runFolder, folderName(name));
  } catch {
    return; // another run holds it: its report is its own
  }
  try {
    await writeRunReport(runFolder, failed, undefined);
  } finally {
    await lock.release();
  }
}

/** The sinks, each with the key the run state knows it by, resumed from their last checkpoints. */
async function openSinks(config: PipelineConfig, context: RunContext & Pick<SinkContext, "fail">, state: RunState, pipelineFile: string): Promise<RunSink[]> {
  const sinks: RunSink[] = [];
  const keys = sinkKeys(config.sinks);
  const { spec, type, options } = config.source;
  const sourceOptions = spec.origin?.(options, config.baseDir);
  const origin: RunOrigin = { pipeline: resolve(pipelineFile), ...(sourceOptions ? { source: { type, options: sourceOptions } } : {}) };
  try {
    for (const [i, s] of config.sinks.entries()) {
      const key = keys[i]!;
      const sink = await s.spec.create(s.options, { ...context, origin, checkpoint: state.checkpointOf(key) });
      sinks.push({ key, type: s.type, sink });
    }
    state.adoptSinks(sinks.map((s) => ({ key: s.key, resumed: s.sink.resumed })));
  } catch (err) {
    await Promise.allSettled(sinks.map((s) => s.sink.abort()));
    throw err;
  }
  return sinks;
}

type Step =
  | { kind: "skipped"; item: SourceItem; refingerprint: boolean; job?: DocumentJob }
  | { kind: "abandoned" }
  | { kind: "deliver"; item: SourceItem; result: DocumentResult; documentId: string | null; targets: readonly string[]; replace: boolean; job?: DocumentJob }
  | { kind: "remove"; uri: string };

/** The listing, then (watching) the source's changes, through the processor and into the sinks in order. */
async function drive(
  source: Source,
  delivery: Delivery,
  processor: DocumentProcessor,
  identity: PipelineIdentity,
  config: PipelineConfig,
  options: { stop: AbortSignal; sinkFailed: AbortSignal; watch: boolean; reprocess: boolean; events: RunEvents },
): Promise<RunSummary> {
  const started = process.hrtime.bigint();
  const { stop, events } = options;
  const { summary } = delivery;
  const planContext = { identity, sinks: delivery.sinkKeys, maxFileBytes: config.settings.max_file_bytes, reprocess: options.reprocess };
  let inFlight = 0;
  let unreachable = 0;

  const prepare = async (item: SourceItem): Promise<Step> => {
    delivery.seen(item);
    // Planned against what the state knows, this run's deliveries included.
    const plan = planItem(item, delivery.lookup(item.uri), planContext);
    if (plan.action === "skip") return { kind: "skipped", item, refingerprint: false };
    if (plan.action === "fail") return { kind: "deliver", item, result: failedResult(item.uri, plan.error), documentId: null, targets: delivery.sinkKeys, replace: true };
    const outcome = await processor.run(plan.job, { progress: (pages) => events.onDocumentProgress?.(item, pages) });
    if (!outcome) return { kind: "abandoned" };
    const settled = settleOutcome(plan, outcome, delivery.sinkKeys);
    if (settled.kind === "refingerprint") return { kind: "skipped", item, refingerprint: true, job: plan.job };
    if (outcome.kind !== "processed") throw new Error("a settled delivery needs a processed outcome");
    return { kind: "deliver", item, result: outcome.result, documentId: outcome.documentId, targets: settled.targets, replace: settled.replace, job: plan.job };
  };
  const apply = async (step: Step) => {
    // Recorded before the delivery: a checkpoint it makes covers this job too.
    if ((step.kind === "skipped" || step.kind === "deliver") && step.job) delivery.processed(step.job);
    if (step.kind === "skipped") {
      await delivery.skipped(step.item, step.refingerprint);
      events.onSkipped?.(step.item);
    } else if (step.kind === "remove") {
      if (await delivery.remove(step.uri)) events.onRemoved?.(step.uri);
    } else if (step.kind === "deliver") {
      const change = await delivery.deliver(step.item, step.result, step.documentId, step.targets, step.replace);
      events.onResult?.(step.result, step.item, { change, watching: delivery.eager });
      // A source that cannot be reached at all stops the run once, rather than failing every document left.
      unreachable = step.result.status === "failed" && step.result.error.code === "source_unreachable" ? unreachable + 1 : 0;
      if (unreachable >= UNREACHABLE_STOP && step.result.status === "failed") {
        await delivery.checkpoint();
        throw new Error(`the source stopped answering, ${unreachable} documents in a row: ${step.result.error.message}. What was done is kept; the next run goes on from there`);
      }
    }
  };

  const track =
    <T>(work: (x: T) => Promise<Step>) =>
    async (x: T) => {
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
    killTimer = setTimeout(() => processor.kill(), config.settings.shutdown_timeout_seconds * 1000);
  };
  stop.addEventListener("abort", onStop, { once: true });
  const concurrency = processor.maxInFlight ?? processor.capacity * 2;
  try {
    // Started before the listing, so that nothing changing during it is missed.
    const changes = options.watch ? source.watch?.(stop) : undefined;
    // A watcher that scans the folder first ignores what it finds there: a file added before it
    // is ready, once the listing has passed, would be seen by neither.
    await changes?.ready;
    const listing = untilAborted(source.list(), AbortSignal.any([stop, options.sinkFailed]));
    for await (const step of mapOrdered(listing, concurrency, track(prepare))) await apply(step);
    options.sinkFailed.throwIfAborted();
    summary.complete = listing.finished;
    await delivery.checkpoint();
    if (summary.complete && delivery.prunes) {
      // An empty folder to watch is normal; an empty nightly batch usually means an unmounted source.
      if (summary.listed === 0) {
        if (!options.watch) events.warn?.("prune skipped: the source listed no documents (is it mounted?)");
      } else {
        for (const uri of await delivery.prune()) events.onRemoved?.(uri);
      }
    }
    if (changes && !stop.aborted) {
      delivery.eager = true;
      events.onWatching?.({ ...summary, seconds: elapsed(started) });
      const work = (change: SourceChange): Promise<Step> => (change.type === "upsert" ? prepare(change.item) : Promise.resolve({ kind: "remove", uri: change.uri }));
      for await (const step of mapOrdered(untilAborted(changes, AbortSignal.any([stop, options.sinkFailed])), concurrency, track(work))) await apply(step);
      options.sinkFailed.throwIfAborted();
      await delivery.checkpoint();
    }
  } finally {
    clearTimeout(killTimer);
    stop.removeEventListener("abort", onStop);
  }
  summary.interrupted = stop.aborted;
  summary.seconds = elapsed(started);
  await delivery.close(summary);
  return summary;
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
