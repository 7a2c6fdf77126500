/**
 * The extraction workers: long-lived child processes, one document each at a time.
 *
 * Why processes and not worker threads: pdf.js inflates whole streams into typed arrays that
 * live outside the V8 heap, so a thread's `resourceLimits` never see a decompression bomb
 * (bomb-flate.pdf drives one to ~3 GiB). A process's resident memory is what the kernel
 * charges it, all of it: the pool reads it from /proc every 100 ms and kills a worker past
 * `max_worker_memory_mb`, as it kills one past `timeout_seconds`. The document gets a
 * `resource_limit` or `timeout` error record, a fresh worker takes the slot, and the run
 * goes on. V8's own heap limit is set to the same cap, so a heap that fills first ends the
 * same way.
 */
import type { ChildProcess } from "node:child_process";
import { DocumentError } from "../core/document-error.js";
import { failedResult } from "./process-document.js";
import { WINDOW_PAGES } from "../core/stage-operators.js";
import { DocumentDeadline } from "./document-deadline.js";
import { canWatchMemory, residentBytes } from "./process-memory.js";
import type { DocumentJob, DocumentProcessor, JobHooks, JobOutcome } from "./processor.js";
import { withParts, type ResultPart } from "./result-parts.js";
import type { FromWorker, ToWorker, WorkerSetup } from "./worker-protocol.js";
import { forkExtractionWorker } from "./worker-process.js";

export interface PoolOptions {
  workers: number;
  /**
   * What every worker builds and applies (source, stages, limits, what the sinks read). A promise
   * lets the workers start before it is known: they boot while the caller validates its options.
   */
  setup: WorkerSetup | Promise<WorkerSetup>;
  timeoutSeconds: number;
  maxWorkerMemoryMb: number;
  /**
   * A worker already forked with `forkExtractionWorker(maxWorkerMemoryMb)`, taken as the first
   * one: `pagestream extract` starts it before it has read its command line.
   */
  adopt?: ChildProcess;
  /** Where stages' warnings and the pool's own notes go. */
  warn(message: string): void;
}

/** How often the pool reads its workers' resident memory. A bomb grows by tens of MiB in that time. */
const MEMORY_POLL_MS = 100;
/** Bytes of a worker's stderr kept to explain a crash. */
const STDERR_TAIL = 2048;
/** Workers in a row that may die while starting before the run gives up. */
const MAX_START_FAILURES = 3;

interface Job {
  id: number;
  job: DocumentJob;
  hooks?: JobHooks;
  /** undefined: the run stopped and abandoned the document. */
  settle(outcome: JobOutcome | undefined): void;
  /** Records the worker sent ahead of the outcome, kept until it comes (result-parts.ts). */
  parts: ResultPart[];
  deadline?: DocumentDeadline;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  job?: Job;
  /** Set when the pool kills the worker, to name the reason in the document's error record. */
  killedFor?: { code: "timeout" | "resource_limit"; message: string };
  /** The worker said its last outcome was its last: it is ending, and gets no more jobs. */
  retiring?: boolean;
  /** The worker said it could not build the stages: starting another would fail the same way. */
  initFailed?: boolean;
  stderr: string;
}

export class WorkerPool implements DocumentProcessor {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextJob = 1;
  private stopping = false;
  private readonly poller: NodeJS.Timeout;
  /** Highest resident memory seen of any worker, in bytes. */
  peakWorkerBytes = 0;
  /** Workers started in all (the first ones and every replacement). */
  started = 0;
  /** Workers in a row that died while starting. */
  private startFailures = 0;

  get capacity(): number {
    return this.options.workers;
  }

  private constructor(private readonly options: PoolOptions) {
    this.poller = setInterval(() => this.watchMemory(), MEMORY_POLL_MS).unref();
  }

  /**
   * The pool; its workers start with the first document, so a run that skips everything never
   * pays for them. A worker that cannot build the stages makes `run` reject (a fatal error).
   */
  static start(options: PoolOptions): WorkerPool {
    const pool = new WorkerPool(options);
    if (!canWatchMemory) options.warn(`this system has no /proc: max_worker_memory_mb bounds only the workers' JavaScript heap`);
    return pool;
  }

  private starting?: Promise<void>;

  private ensureStarted(): Promise<void> {
    const adopted = this.options.adopt;
    this.starting ??= Promise.all(Array.from({ length: this.options.workers }, (_, i) => this.spawn(i === 0 ? adopted : undefined))).then(
      () => {},
      (err: unknown) => {
        this.kill();
        throw err;
      },
    );
    return this.starting;
  }

  /** Starts the workers now rather than with the first job (a command that has one job and wants it done soon). */
  prestart(): void {
    this.ensureStarted().catch(() => {}); // the first run() reports the failure
  }

  /** Starts the workers now; rejects when they cannot build the stages (a queue worker checks before it takes a job). */
  ready(): Promise<void> {
    return this.ensureStarted();
  }

  /** Runs one job in a worker. Resolves with its outcome, or undefined when the pool was stopped first. */
  async run(job: DocumentJob, hooks?: JobHooks): Promise<JobOutcome | undefined> {
    await this.ensureStarted();
    if (this.stopping) return undefined;
    return new Promise((settle) => {
      this.queue.push({ id: this.nextJob++, job, hooks, settle, parts: [] });
      this.dispatch();
    });
  }

  /** Lets the workers finish and exit. */
  async close(): Promise<void> {
    this.stopping = true;
    clearInterval(this.poller);
    const exits = [...this.slots].map((slot) => new Promise((resolve) => (slot.child.exitCode !== null || slot.child.signalCode !== null ? resolve(undefined) : slot.child.once("exit", resolve))));
    for (const slot of this.slots) if (slot.child.connected) slot.child.disconnect();
    await Promise.all(exits);
  }

  /**
   * Lets the workers go without waiting for their exit: each exits by itself once disconnected.
   * For a command whose one document is done and printed: its process can end at once, while a
   * worker still tears down (or writes pdf.js's code cache, script-code-cache.ts).
   */
  release(): void {
    this.stopping = true;
    clearInterval(this.poller);
    for (const slot of this.slots) {
      if (slot.child.connected) slot.child.disconnect();
      slot.child.unref();
      (slot.child.stderr as { unref?(): void } | null)?.unref?.();
    }
  }

  /** Stops every worker now; documents in flight and waiting are abandoned. */
  kill(): void {
    this.stopping = true;
    clearInterval(this.poller);
    for (const job of this.queue.splice(0)) job.settle(undefined);
    for (const slot of this.slots) {
      if (slot.job) this.finish(slot, undefined);
      slot.child.kill("SIGKILL");
    }
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.retiring || slot.job || this.queue.length === 0) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      const message: ToWorker = { type: "job", id: job.id, job: job.job };
      slot.child.send(message, (err) => {
        // The worker died before it got the document: its exit handler reports it.
        if (err && slot.job === job) slot.child.kill("SIGKILL");
      });
      job.deadline = new DocumentDeadline(this.options.timeoutSeconds, () => {
        const perWindow = job.deadline!.windows > 1 ? ` for each ${WINDOW_PAGES.toLocaleString("en-US")} pages read` : "";
        this.stop(slot, "timeout", `extraction took longer than timeout_seconds (${this.options.timeoutSeconds} s${perWindow}); its worker was stopped`);
      });
    }
  }

  private stop(slot: Slot, code: "timeout" | "resource_limit", message: string): void {
    if (slot.killedFor) return;
    slot.killedFor = { code, message };
    slot.child.kill("SIGKILL");
  }

  private watchMemory(): void {
    const cap = this.options.maxWorkerMemoryMb * 1024 * 1024;
    for (const slot of this.slots) {
      const pid = slot.child.pid;
      const rss = pid === undefined ? undefined : residentBytes(pid);
      if (rss === undefined) continue;
      this.peakWorkerBytes = Math.max(this.peakWorkerBytes, rss);
      if (slot.job && rss > cap) {
        this.stop(slot, "resource_limit", `extraction used more than max_worker_memory_mb (${this.options.maxWorkerMemoryMb} MiB; ${Math.round(rss / 1048576)} MiB resident); its worker was stopped`);
      }
    }
  }

  private finish(slot: Slot, outcome: JobOutcome | undefined): void {
    const job = slot.job!;
    job.deadline?.clear();
    slot.job = undefined;
    job.settle(outcome);
  }

  private spawn(adopted?: ChildProcess): Promise<void> {
    this.started++;
    const child = adopted ?? forkExtractionWorker(this.options.maxWorkerMemoryMb);
    const slot: Slot = { child, ready: false, stderr: "" };
    void Promise.resolve(this.options.setup).then(
      (setup) => child.connected && child.send({ type: "init", setup } satisfies ToWorker),
      () => child.kill("SIGKILL"),
    );
    this.slots.add(slot);
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (text: string) => (slot.stderr = (slot.stderr + text).slice(-STDERR_TAIL)));
    return new Promise((resolve, reject) => {
      child.on("message", (message: FromWorker) => {
        if (message.type === "ready") {
          slot.ready = true;
          this.startFailures = 0;
          resolve();
          this.dispatch();
        } else if (message.type === "init_failed") {
          slot.initFailed = true;
          reject(new Error(`an extraction worker could not build the stages: ${message.message}`));
          child.kill("SIGKILL");
        } else if (message.type === "warn") {
          this.options.warn(message.message);
        } else if (message.type === "progress") {
          if (slot.job?.id === message.id) {
            slot.job.deadline?.pagesRead(message.pages);
            slot.job.hooks?.progress?.(message.pages);
          }
        } else if (message.type === "records") {
          if (slot.job?.id === message.id) slot.job.parts.push(message.part);
        } else if (slot.job?.id === message.id) {
          if (message.last) slot.retiring = true;
          this.finish(slot, withPartsOf(message.outcome, slot.job.parts));
          this.dispatch();
        }
      });
      child.on("error", (err) => reject(new Error(`an extraction worker could not start: ${err.message}`)));
      child.on("exit", (code, signal) => {
        this.slots.delete(slot);
        if (!slot.ready) {
          if (this.stopping) return resolve();
          // Killed from outside while it started (an operator, the OOM killer): another takes its
          // place. One that keeps dying on its own cannot run anything: the run stops.
          if (signal && !slot.initFailed && ++this.startFailures < MAX_START_FAILURES) return void this.spawn().then(resolve, reject);
          return reject(new Error(`an extraction worker exited while starting (${signal ?? code}): ${slot.stderr.trim()}`));
        }
        if (slot.job) this.finish(slot, failure(slot.job.job, this.exitReason(slot, code, signal)));
        if (this.stopping || !slot.ready) return;
        this.spawn().catch((err: Error) => {
          this.options.warn(err.message);
          if (this.slots.size === 0) for (const job of this.queue.splice(0)) job.settle(failure(job.job, err));
        });
      });
    });
  }

  private exitReason(slot: Slot, code: number | null, signal: NodeJS.Signals | null): DocumentError {
    if (slot.killedFor) return new DocumentError(slot.killedFor.code, slot.killedFor.message);
    if (/heap out of memory|Allocation failed/i.test(slot.stderr)) {
      return new DocumentError("resource_limit", `extraction ran out of JavaScript heap (max_worker_memory_mb ${this.options.maxWorkerMemoryMb} MiB); its worker was stopped`);
    }
    const tail = slot.stderr.trim().split("\n").slice(-3).join(" / ");
    return new DocumentError("worker_lost", `the extraction worker was lost (${signal ? `stopped by ${signal}` : `exit code ${code}`}: killed from outside, or it crashed)${tail ? `: ${tail}` : ""}`);
  }
}

/** The outcome with the records sent ahead of it; a failure drops them (the sinks get it alone). */
function withPartsOf(outcome: JobOutcome, parts: readonly ResultPart[]): JobOutcome {
  return outcome.kind === "processed" ? { ...outcome, result: withParts(outcome.result, parts) } : outcome;
}

/** A job that failed outside the stages (its worker was stopped or died): the bytes' hash is not known here. */
function failure(job: DocumentJob, err: unknown): JobOutcome {
  return { kind: "processed", documentId: null, result: failedResult(job.item.uri, err) };
}
